import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { navLinkState, useActiveNavId } from '../../features/games/components/game-nav';
import { Modal } from '../../ui/modal';
import { LanguageSelect } from './language-select';
import { ThemeToggle } from './theme-toggle';
import { useNav } from './use-nav';

/** The side menu: the full navigation in a drawer (phones and narrow windows). */
export function SideMenu({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation('common');
  const nav = useNav();
  const activeId = useActiveNavId(nav);
  return (
    <Modal name="sideMenu" open={open} onClose={onClose} title={t('menu')} className="side-menu" width={280} height={300} delay={160}>
      <nav aria-label={t('main_navigation')}>
        <ul className="side-menu__list">
          {nav.map((n) => (
            <li key={n.id}>
              <Link
                to={n.path}
                state={navLinkState(n.id)}
                onClick={onClose}
                className={`side-menu__link${activeId === n.id ? ' active' : ''}`}
                aria-current={activeId === n.id ? 'page' : undefined}
              >
                {t(n.nameKey)}
              </Link>
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
