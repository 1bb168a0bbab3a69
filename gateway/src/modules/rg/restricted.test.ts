import { describe, expect, it } from 'vitest';
import { categoryOf, csvRecords, isoDate, parseRestrictedCsv, rgNameKey } from './restricted.ts';
import { isAllowedWhenExcluded } from './restricted-session.ts';

describe('restricted persons: the matching rule and the CSV', () => {
  it('one name key for one name however it is written', () => {
    const k = rgNameKey('Juan Dela Cruz');
    for (const v of ['DELA CRUZ, Juan', '  juan   dela-cruz ', 'Juán Déla Crúz', 'cruz dela juan']) expect(rgNameKey(v), v).toBe(k);
    expect(rgNameKey('Juan Cruz')).not.toBe(k);
    expect(rgNameKey('José Rizal')).toBe('jose rizal');
    expect(rgNameKey('Ñino Peña')).toBe('nino pena');
    expect(rgNameKey(' ,. ')).toBe('');
  });

  it('dates are real calendar days written YYYY-MM-DD', () => {
    expect(isoDate('1980-02-29')).toBe('1980-02-29');
    for (const bad of ['1981-02-29', '1980-13-01', '01/02/1980', '1980-2-1', '1850-01-01', '']) expect(isoDate(bad), bad).toBeNull();
  });

  it('categories by code or by their usual names', () => {
    expect(categoryOf('government official')).toBe('government_official');
    expect(categoryOf('Armed Forces')).toBe('armed_forces_police');
    expect(categoryOf('POLICE')).toBe('armed_forces_police');
    expect(categoryOf('licensee employee')).toBe('licensee_employee');
    expect(categoryOf('National Exclusion List')).toBe('national_exclusion');
    expect(categoryOf('astronaut')).toBeNull();
  });

  it('reads RFC 4180 CSV (quotes, commas and line breaks inside quotes, CRLF, BOM)', () => {
    expect(csvRecords('\uFEFFa,"b, c","say ""hi"""\r\n"multi\nline",x,y\n\n')).toEqual([['a', 'b, c', 'say "hi"'], ['multi\nline', 'x', 'y']]);
  });

  it('parses a list, skipping its header, and reports every bad line', () => {
    const ok = parseRestrictedCsv('full_name,birth_date,category,id_number\n"Dela Cruz, Juan",1980-02-01,government_official,G-1\nAna Reyes,1970-05-05,police\n');
    expect(ok.problems).toEqual([]);
    expect(ok.rows).toEqual([
      { fullName: 'Dela Cruz, Juan', nameKey: 'cruz dela juan', birthDate: '1980-02-01', category: 'government_official', idNumber: 'G-1' },
      { fullName: 'Ana Reyes', nameKey: 'ana reyes', birthDate: '1970-05-05', category: 'armed_forces_police', idNumber: null },
    ]);
    const bad = parseRestrictedCsv('Ana,1970-05-05\n,1970-05-05,police\nAna,05/05/1970,police\nAna,1970-05-05,chef\nAna,1970-05-05,police,1,extra\n');
    expect(bad.problems.map((p) => p.path)).toEqual(['line 1', 'line 2', 'line 3', 'line 4', 'line 5']);
    expect(parseRestrictedCsv('\n\n').problems).toEqual([{ path: 'csv', message: 'no rows' }]);
  });
});

describe('the restricted session of an excluded player', () => {
  it('allows reads and the withdrawal calls, refuses every other write', () => {
    expect(isAllowedWhenExcluded('GET', '/wps/v2/wallets/balance')).toBe(true);
    expect(isAllowedWhenExcluded('POST', '/wps/v2/withdrawals')).toBe(true);
    expect(isAllowedWhenExcluded('POST', '/wps/v2/withdrawals/123/confirm')).toBe(true);
    expect(isAllowedWhenExcluded('DELETE', '/wps/v2/bank-accounts/9')).toBe(true);
    expect(isAllowedWhenExcluded('DELETE', '/wps/session/logout')).toBe(true);
    expect(isAllowedWhenExcluded('POST', '/wps/v2/rg/limits')).toBe(true);
    for (const [m, p] of [['POST', '/wps/game/launchGame'], ['POST', '/wps/v2/deposit/orders'], ['POST', '/wps/relay/GCS_walletTransfer'], ['POST', '/wps/v2/withdrawals/1/confirm/x'], ['PUT', '/wps/anything-new']]) {
      expect(isAllowedWhenExcluded(m!, p!), `${m} ${p}`).toBe(false);
    }
  });
});
