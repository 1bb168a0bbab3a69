import { describe, expect, it } from 'vitest';
import { providerWarnings } from './provider-warnings';

const modules = { USERNAMEREG3: true, MOBILENUMREG3: true, REGMOBVERF3: true, MOBILEVERCODELOGIN3: false };

describe('providerWarnings', () => {
  it('names the SMS features that are on when no SMS provider is configured, and the e-mailed reset without SMTP', () => {
    expect(providerWarnings({ modules, whitelabel: { CHNGPASSVERIF3: 'email' }, providers: { sms: false, mail: false } })).toEqual([
      { channel: 'sms', flags: ['MOBILENUMREG3', 'REGMOBVERF3'] },
      { channel: 'mail' },
    ]);
    expect(providerWarnings({ modules: {}, whitelabel: { CHNGPASSVERIF3: 'mobile' }, providers: { sms: false, mail: false } })).toEqual([
      { channel: 'sms', flags: ['CHNGPASSVERIF3'] },
    ]);
  });
  it('says nothing when the providers are there, when nothing needs them, or when the server did not say', () => {
    expect(providerWarnings({ modules, whitelabel: {}, providers: { sms: true, mail: true } })).toEqual([]);
    expect(providerWarnings({ modules: { USERNAMEREG3: true }, whitelabel: { CHNGPASSVERIF3: 'email' }, providers: { sms: false, mail: true } })).toEqual([]);
    expect(providerWarnings({ modules, whitelabel: {} })).toEqual([]);
  });
});
