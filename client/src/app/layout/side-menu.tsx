import { NavLink } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { Modal } from '../../ui/modal';
import { LanguageSelect } from './language-select';
import { ThemeToggle } from './theme-toggle';
import { useNav } from './use-nav';

/** The side menu: the full navigation in a drawer (phones and narrow windows). */
export function SideMenu({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation('common');
  const nav = useNav();
  return (
    <Modal name="sideMenu" open={open} onClose={onClose} title={t('menu')} className="side-menu" width={280} height={300} delay={160}>
      <nav aria-label={t('main_navigation')}>
        <ul className="side-menu__list">
          {nav.map((n) => (
            <li key={n.id}>
              <NavLink to={n.path} end={n.path === '/'} onClick={onClose} className="side-menu__link">
                {t(n.nameKey)}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <div className="side-menu__tools">
        <LanguageSelect />
        <ThemeToggle />
      </div>
    </Modal>
  );
}
