import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.ts';

describe('config from the environment', () => {
  it('defaults to embedded services', () => {
    const c = loadConfig({});
    expect(c.PORT).toBe(8080);
    expect(c.DATABASE_URL).toBeUndefined();
    expect(c.REDIS_URL).toBeUndefined();
    expect(c.isProduction).toBe(false);
  });
  it('treats empty variables as unset', () => {
    expect(loadConfig({ DATABASE_URL: '', REDIS_URL: '' }).DATABASE_URL).toBeUndefined();
  });
  it('refuses invalid values with the variable named', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => loadConfig({ DATABASE_URL: 'not a url' })).toThrow(/DATABASE_URL/);
    expect(loadConfig({ NODE_ENV: 'production' }).isProduction).toBe(true);
  });
});
