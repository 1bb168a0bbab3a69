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
  it('sizes the PostgreSQL pool from DB_POOL_SIZE (default 20), refusing sizes it cannot run with', () => {
    expect(loadConfig({}).DB_POOL_SIZE).toBe(20);
    expect(loadConfig({ DB_POOL_SIZE: '64' }).DB_POOL_SIZE).toBe(64);
    expect(() => loadConfig({ DB_POOL_SIZE: '1' })).toThrow(/DB_POOL_SIZE/);
    expect(() => loadConfig({ DB_POOL_SIZE: '12.5' })).toThrow(/DB_POOL_SIZE/);
    expect(() => loadConfig({ DB_POOL_SIZE: 'many' })).toThrow(/DB_POOL_SIZE/);
  });
});
