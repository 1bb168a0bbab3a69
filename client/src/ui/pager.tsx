import { useTranslation } from 'react-i18next';
import './cashier.css';

/** Previous / next paging for the member centre's lists (hidden with one page). */
export function Pager({ page, pages, onPage, prefix }: { page: number; pages: number; onPage: (p: number) => void; prefix: string }) {
  const { t } = useTranslation('wallet');
  if (pages <= 1) return null;
  return (
    <div className="cx-pager">
      <button type="button" className="btn btn--ghost btn--sm" disabled={page <= 1} onClick={() => onPage(page - 1)} data-testid={`${prefix}-prev`}>
        {t('prev')}
      </button>
      <span data-testid={`${prefix}-page`}>{t('page_of', { page, pages })}</span>
      <button type="button" className="btn btn--ghost btn--sm" disabled={page >= pages} onClick={() => onPage(page + 1)} data-testid={`${prefix}-next`}>
        {t('next')}
      </button>
    </div>
  );
}

export const pagesOf = (d: { total: number; pageSize: number } | undefined) => (d ? Math.max(1, Math.ceil(d.total / d.pageSize)) : 1);
