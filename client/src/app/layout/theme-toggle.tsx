import { useTranslation } from 'react-i18next';
import { setTheme, useTheme } from '../../lib/theme';
import { Icon } from '../../ui/icons';

export function ThemeToggle() {
  const { t } = useTranslation('common');
  const theme = useTheme();
  const next = theme === 'dark' ? 'light' : 'dark';
  const label = next === 'light' ? t('theme_light') : t('theme_dark');
  return (
    <button type="button" className="icon-btn" onClick={() => setTheme(next)} aria-label={label} title={label} data-testid="theme-toggle">
      <Icon name={theme === 'dark' ? 'sun' : 'moon'} size={18} />
    </button>
  );
}
