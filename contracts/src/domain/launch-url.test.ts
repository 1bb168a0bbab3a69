import { describe, expect, it } from 'vitest';
import { launchUrlProblem } from './launch-url.ts';

describe('launchUrlProblem', () => {
  it('takes an absolute https address with a host, port and path', () => {
    for (const v of ['https://games.example.com/play', 'https://games.example.com', 'https://10.0.0.5:8443/launch/v2', '  https://a-b.example/x_y.z-1  ', 'HTTPS://[2001:db8::1]/play']) {
      expect(launchUrlProblem(v, { httpsOnly: true }), v).toBeNull();
    }
  });

  it('takes http only off production', () => {
    expect(launchUrlProblem('http://localhost:8090/play', { httpsOnly: false })).toBeNull();
    expect(launchUrlProblem('http://localhost:8090/play', { httpsOnly: true })).toBe('https');
  });

  it('refuses what would break the launch URL the portal builds, or is not a web address', () => {
    for (const v of [
      '', '   ', 'games.example.com/play', '/house/play', 'ftp://games.example.com', 'javascript:alert(1)', 'https://', 'https:///play',
      'https://user:pass@games.example.com/play', 'https://games.example.com/play?x=1', 'https://games.example.com/play#top',
      'https://games example.com', 'https://games.example.com/a b', 'https://-bad.example', 'https://bad..example', 'https://games.example.com:0/',
      'https://games.example.com:70000/', 'https://games.example.com/"><script>', `https://x.example/${'a'.repeat(600)}`,
    ]) {
      expect(launchUrlProblem(v, { httpsOnly: false }), v).toBe('format');
    }
  });
});
