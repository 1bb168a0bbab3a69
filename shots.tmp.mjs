import { chromium } from 'playwright-core';
const base = 'http://127.0.0.1:8377';
const b = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu'] });
const post = (p, body) => fetch(base + p, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }).then((r) => r.json());
await post('/wps/dev/members', { account: 'shotuser1', password: 'login12345' });
const s = await post('/wps/dev/sessions', { account: 'shotuser1' });
const token = s.value.token;
for (const [lang, theme] of [['EN', 'dark'], ['TY', 'light']]) {
  const ctx = await b.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await ctx.newPage();
  await page.goto(base + '/');
  await page.evaluate(([lang, theme, token]) => { localStorage.setItem('lang', lang); localStorage.setItem('theme', theme); return fetch('/wps/session/keep', { method: 'POST', headers: { authorization: `Bearer ${token}` } }); }, [lang, theme, token]);
  for (const path of ['/winners', '/description', '/sponsor', '/down', '/seamless', '/member?tab=referral', '/member?tab=personalProfit']) {
    await page.goto(base + path);
    await page.waitForTimeout(2500);
    const name = path.replace(/[/?=&]/g, '_');
    await page.screenshot({ path: `/tmp/shot-${lang}${name}.png`, fullPage: true });
  }
  await ctx.close();
}
await b.close();
console.log('done');
