import express from 'express';
import { describe, expect, it } from 'vitest';
import { mountSvgArt, titleSize } from './svg-art.ts';

describe('demo banner art', () => {
  it('draws the title and tag it is given (the page sends them in its language), escaped', async () => {
    const app = express();
    mountSvgArt(app);
    const srv = app.listen(0);
    try {
      const port = (srv.address() as { port: number }).port;
      const r = await fetch(`http://127.0.0.1:${port}/img/banner/welcome.svg?t=${encodeURIComponent('Bonus sa Pagsalubong 100% <b>')}&tag=DEMO%20NA%20PORTAL`);
      expect(r.headers.get('content-type')).toContain('image/svg+xml');
      const svg = await r.text();
      expect(svg).toContain('>Bonus sa Pagsalubong 100% &lt;b&gt;</text>');
      expect(svg).toContain('>DEMO NA PORTAL</text>');
    } finally {
      srv.close();
    }
  });

  it('a long title gets a smaller font so that it fits the banner (84 px up to about 24 characters)', () => {
    expect(titleSize('Welcome Bonus 100%')).toBe(84);
    const long = 'Live na Sabong Mamayang Gabi';
    expect(titleSize(long)).toBeLessThan(84);
    expect(titleSize(long) * 0.7 * long.length).toBeLessThanOrEqual(1430);
    expect(titleSize('x'.repeat(60))).toBe(36);
  });

  it("the logo draws the site's name it is given (LuckyPeso by default), escaped, in the same 220 px box", async () => {
    const app = express();
    mountSvgArt(app);
    const srv = app.listen(0);
    try {
      const port = (srv.address() as { port: number }).port;
      const get = async (q: string) => (await fetch(`http://127.0.0.1:${port}/img/logo.svg${q}`)).text();
      const peso = await get('');
      expect(peso).toContain('>LuckyPeso</text>');
      expect(peso).toContain('width="220"');
      const dong = await get('?n=LuckyDong');
      expect(dong).toContain('>LuckyDong</text>');
      expect(dong).toContain('>L</text>');
      expect(dong).not.toContain('LuckyPeso');
      expect(dong).toContain('width="220"');
      expect(await get('?n=%3Cb%3E')).toContain('>&lt;b&gt;</text>');
    } finally {
      srv.close();
    }
  });
});
