import { Suspense, useEffect, useRef } from 'react';
import type { ReactNode } from 'react';
import { useSearchParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { MEMBER_CENTRE_ITEMS } from '@portal/contracts/domain/constants';
import { errorMessage } from '../../../lib/field-message';
import { openPopup } from '../../../lib/popups';
import { FormMessage } from '../../../ui/form-field';
import { useMemberInfo } from '../api/get-member-info';
import { SecurityCenter } from './security-center';
import './member-centre.css';
import { usePageSubTitle } from '../../../lib/page-title';

export type MemberCentreItem = (typeof MEMBER_CENTRE_ITEMS)[number];
/** What another feature contributes to an item; the app layer composes them (features do not import each other). */
export type MemberCentreSlot = { render: () => ReactNode; badge?: number; hidden?: boolean };
/** Every item but the security centre (this feature's own) comes from a slot: a missing one is a type error. */
export type MemberCentreSlots = Record<Exclude<MemberCentreItem, 'securityCenter'>, MemberCentreSlot>;

/**
 * On a phone the menu is one sideways-scrolling row: the scroll that brings the current item to its middle
 * (clamped to the row). A member centre opened on a later item (the header's Deposit or Withdraw, a
 * cashier return) showed the first two items and not the one open.
 */
export function menuScrollFor(row: { clientWidth: number; scrollWidth: number }, item: { offsetLeft: number; offsetWidth: number }): number {
  const max = Math.max(0, row.scrollWidth - row.clientWidth);
  return Math.min(max, Math.max(0, Math.round(item.offsetLeft - (row.clientWidth - item.offsetWidth) / 2)));
}

const isItem = (v: string | null): v is MemberCentreItem => v !== null && (MEMBER_CENTRE_ITEMS as readonly string[]).includes(v);

/**
 * /member: the member centre, security centre by default (spec section 2). `?tab=<item>` selects
 * an item (the header menu and the cashier's return URL use it); every other item is a slot.
 */
export function MemberCentrePage({ slots }: { slots: MemberCentreSlots }) {
  const { t } = useTranslation('register');
  const info = useMemberInfo();
  const [search, setSearch] = useSearchParams();
  const tab = search.get('tab');
  const slotOf = (id: MemberCentreItem): MemberCentreSlot | undefined => (id === 'securityCenter' ? undefined : slots[id]);
  const item: MemberCentreItem = isItem(tab) && !slotOf(tab)?.hidden ? tab : 'securityCenter';
  const setItem = (id: MemberCentreItem) => setSearch(id === 'securityCenter' ? {} : { tab: id }, { replace: true });
  const slot = slotOf(item);
  // transferUpline sends an agent's money down too (to a downline), and only down when it has no upline.
  const labelOf = (id: MemberCentreItem) =>
    id === 'transferUpline' && info.data?.isAgent ? t(info.data.hasUpline === false ? 'mc_transferUpline_down' : 'mc_transferUpline_agent') : t(`mc_${id}`);
  usePageSubTitle(labelOf(item));
  const menuRef = useRef<HTMLUListElement>(null);
  const isReady = !!info.data && !info.data.isTrial;
  // A tab that is no item at all: the default shows, and the address says so. (An item hidden by a
  // module flag is left in the address: the flags may still be loading.)
  const unknownTab = tab !== null && !isItem(tab);
  useEffect(() => {
    if (unknownTab) setSearch({}, { replace: true });
  }, [unknownTab, setSearch]);
  useEffect(() => {
    const row = menuRef.current;
    const current = row?.querySelector<HTMLElement>('[aria-current="page"]');
    // Only the row scrolls (scrollIntoView would move the page too); a column menu has nothing to scroll.
    if (!row || !current || row.scrollWidth <= row.clientWidth) return;
    const offsetLeft = current.getBoundingClientRect().left - row.getBoundingClientRect().left + row.scrollLeft;
    row.scrollLeft = menuScrollFor(row, { offsetLeft, offsetWidth: current.offsetWidth });
  }, [item, isReady]);
  if (info.error) return <section className="container member-centre"><FormMessage message={errorMessage(info.error)} /></section>;
  if (!info.data) return <section className="container member-centre"><p className="form-notice">{t('loading')}</p></section>;
  if (info.data.isTrial) {
    return (
      <section className="container member-centre member-centre--trial" data-member-trial>
        <div className="mc-card mc-card--center">
          <p>{t('mc_trial')}</p>
          <button type="button" className="btn btn--primary" onClick={() => openPopup('registerModal')}>
            {t('mc_register')}
          </button>
        </div>
      </section>
    );
  }
  return (
    <section className="container member-centre">
      <nav className="mc-menu" aria-label={t('mc_menu')}>
        <ul ref={menuRef}>
          {MEMBER_CENTRE_ITEMS.filter((id) => !slotOf(id)?.hidden).map((id) => {
            const badge = slotOf(id)?.badge ?? 0;
            return (
            <li key={id}>
              <button type="button" className="mc-menu__item" aria-current={item === id ? 'page' : undefined} onClick={() => setItem(id)} data-mc-item={id} data-testid={`mc-item-${id}`}>
                <span>{labelOf(id)}</span>
                {badge > 0 && (
                  <span className="mc-menu__badge" data-testid={`mc-badge-${id}`}>
                    {badge > 99 ? '99+' : badge}
                  </span>
                )}
              </button>
            </li>
            );
          })}
        </ul>
      </nav>
      <div className="mc-content">
        {/* An item waiting for its translations (i18n.ts, useSuspense) spins here; the menu stays. */}
        <Suspense key={item} fallback={<div className="page-spinner" aria-hidden="true" />}>
          {slot ? <div data-mc-content={item}>{slot.render()}</div> : <SecurityCenter info={info.data} />}
        </Suspense>
      </div>
    </section>
  );
}
