import { describe, expect, it } from 'vitest';
import { toVideoEmbed } from './video-url';

describe('toVideoEmbed', () => {
  it('embeds youtube watch links with the Tagalog player language for TY', () => {
    const r = toVideoEmbed('https://www.youtube.com/watch?v=dQw4w9WgXcQ', 'TY');
    expect(r).toEqual({
      ok: true,
      src: 'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ?rel=0&modestbranding=1&playsinline=1&hl=tl&cc_lang_pref=tl',
    });
  });
  it('accepts embed links from youtube-nocookie.com and lower-case language codes', () => {
    const r = toVideoEmbed('https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ?autoplay=1', 'en');
    expect(r.ok && r.src).toContain('/embed/dQw4w9WgXcQ?');
    expect(r.ok && r.src).toContain('hl=en');
  });
  it('leaves the language out when VIDEO_LANGUAGE has none', () => {
    const r = toVideoEmbed('https://youtube.com/shorts/dQw4w9WgXcQ', 'KO');
    expect(r.ok && r.src).not.toContain('hl=');
  });
  it('rejects other hosts, look-alikes and bad links', () => {
    expect(toVideoEmbed('https://vimeo.com/123456', 'EN')).toEqual({ ok: false, reason: 'foreign-host' });
    expect(toVideoEmbed('https://youtube.com.evil.test/watch?v=dQw4w9WgXcQ', 'EN')).toEqual({ ok: false, reason: 'foreign-host' });
    expect(toVideoEmbed('https://notyoutube.com/watch?v=dQw4w9WgXcQ', 'EN')).toEqual({ ok: false, reason: 'foreign-host' });
    expect(toVideoEmbed('javascript:alert(1)', 'EN')).toEqual({ ok: false, reason: 'invalid-url' });
    expect(toVideoEmbed('', 'EN')).toEqual({ ok: false, reason: 'invalid-url' });
    expect(toVideoEmbed('https://www.youtube.com/channel/abc', 'EN')).toEqual({ ok: false, reason: 'no-video-id' });
    expect(toVideoEmbed('https://www.youtube.com/watch?v=%22%3E%3Cscript', 'EN')).toEqual({ ok: false, reason: 'no-video-id' });
  });
});
