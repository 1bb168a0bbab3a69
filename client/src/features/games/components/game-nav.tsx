import { useState, type MouseEvent } from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { requestLaunch } from '../../../lib/game-launch';
import { getFirstGame } from '../api/get-first-game';
import { useTranslation } from 'react-i18next';
import type { NavEntry } from '../lib/nav';
import { activeNavId, vendorPath } from '../lib/nav';
import type { NavItemId } from '@portal/contracts/domain/constants';
import { VendorCardBody } from './vendor-card';

/** The router state a nav link carries: which entry was clicked (two entries may share a page). */
export function navLinkState(id: NavItemId): { navId: NavItemId } {
  return { navId: id };
}

/** The one nav entry to highlight on the current page (header nav and side menu alike). */
export function useActiveNavId(entries: readonly NavEntry[]): NavItemId | null {
  const location = useLocation();
  const clicked = (location.state as { navId?: unknown } | null)?.navId;
  return activeNavId(entries, location.pathname, new URLSearchParams(location.search).get('vassalage'), clicked);
}

/** The header's game-type navigation with a hover (and keyboard focus) drop menu of vendors. */
export function GameNav({ entries }: { entries: NavEntry[] }) {
  const { t } = useTranslation('common');
  const [closedId, setClosedId] = useState<string | null>(null);
  const navigate = useNavigate();
  const activeId = useActiveNavId(entries);

  // Spec section 2: 'Cockfight starts the game directly' — through the launch machine, so a guest
  // gets the login popup and a provider that is not connected says so; without a game, its page.
  const startCockfight = async () => {
    const game = await getFirstGame('COCKFIGHT').catch(() => null);
    if (game) requestLaunch({ kind: 'game', game, direct: true });
    else navigate('/cockfight');
  };

  return (
    <nav className="game-nav" aria-label={t('main_navigation')}>
      <ul className="game-nav__list">
        {entries.map((entry) => {
          const hasDrop = entry.dropVendors.length > 0;
          return (
            <li
              key={entry.id}
              className={`game-nav__item${hasDrop ? ' has-drop' : ''}${closedId === entry.id ? ' is-closed' : ''}`}
              data-nav={entry.id}
              onMouseLeave={() => setClosedId(null)}
            >
              <Link
                to={entry.path}
                state={navLinkState(entry.id)}
                className={`game-nav__link${activeId === entry.id ? ' active' : ''}`}
                aria-current={activeId === entry.id ? 'page' : undefined}
                {...(entry.id === 'COCKFIGHT'
                  ? { onClick: (e: MouseEvent) => { e.preventDefault(); void startCockfight(); } }
                  : {})}
              >
                {t(entry.nameKey)}
              </Link>
              {hasDrop && (
                <div className="drop-menu" role="group" aria-label={t(entry.nameKey)}>
                  <div className="drop-menu__grid">
                    {entry.dropVendors.map((vendor) => (
                      <Link
                        key={vendor.vassalage}
                        to={vendorPath(vendor)}
                        className={`vendor-card${vendor.maintenance ? ' is-maintenance' : ''}`}
                        onClick={() => setClosedId(entry.id)}
                        data-vendor={vendor.vassalage}
                      >
                        <VendorCardBody vendor={vendor} />
                      </Link>
                    ))}
                    {entry.hasMore && (
                      <Link to={entry.path} className="vendor-card vendor-card--more" onClick={() => setClosedId(entry.id)}>
                        <span className="vendor-card__more-dots" aria-hidden="true">
                          •••
                        </span>
                        <span className="vendor-card__name">{t('more')}</span>
                      </Link>
                    )}
                  </div>
                </div>
              )}
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
