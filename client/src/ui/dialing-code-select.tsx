import type { TRegisterSettings } from '../lib/register-settings';

type Props = {
  /** The countries the merchant's registration offers (register settings). */
  countries: TRegisterSettings['countries'];
  value: string;
  onChange: (dialingCode: string) => void;
  label: string;
  className?: string;
  testId?: string;
};

/** The country of a mobile number ("PH +63"), as registration, SMS login, recovery and the security centre pick it. */
export function DialingCodeSelect({ countries, value, onChange, label, className = 'form-field__select', testId }: Props) {
  // A value the list does not hold (the merchant's home code before the settings arrive) stays choosable.
  const list = countries.some((c) => c.countryDialingCode === value) || !value ? countries : [{ countryCode: '', countryDialingCode: value }, ...countries];
  return (
    <select className={className} aria-label={label} value={value} onChange={(e) => onChange(e.target.value)} data-testid={testId}>
      {list.map((c) => (
        <option key={`${c.countryCode}+${c.countryDialingCode}`} value={c.countryDialingCode}>
          {c.countryCode ? `${c.countryCode} ` : ''}+{c.countryDialingCode}
        </option>
      ))}
    </select>
  );
}
