import { chromium } from 'playwright-core';
const base = 'http://127.0.0.1:8377';
const b = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu'] });
for (const [lang, theme] of [['EN', 'dark'], ['TY', 'light']]) {
  const ctx = await b.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await ctx.newPage();
  await page.goto(base + '/');
  await page.evaluate(([lang, theme]) => { localStorage.setItem('lang', lang); localStorage.setItem('theme', theme); }, [lang, theme]);
  for (const [path, id] of [['/winners', 'winners-page'], ['/sponsor', 'sponsor-page'], ['/', 'home-winners']]) {
    await page.goto(base + path);
    await page.getByTestId(id).waitFor({ timeout: 30000 });
    await page.waitForTimeout(1500);
    await page.screenshot({ path: `/tmp/shot2-${lang}${path.replace(/\//g, '_')}.png`, fullPage: path !== '/' });
  }
  await ctx.close();
}
await b.close();
console.log('done');
