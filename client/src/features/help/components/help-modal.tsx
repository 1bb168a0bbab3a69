import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { THelpItem } from '@portal/contracts/api/system';
import type { LanguageCode } from '@portal/contracts/domain/constants';
import { Modal } from '../../../ui/modal';
import { useHelpCenter } from '../api/get-help-center';

const NO_TOPICS: THelpItem[] = [];

type HelpModalProps = {
  open: boolean;
  onClose: () => void;
  lang: LanguageCode;
  /** Topic to open and scroll to. */
  anchor?: string;
};

/** The help popup: one topic expanded at a time, the anchored one first. */
export function HelpModal({ open, onClose, lang, anchor }: HelpModalProps) {
  const { t } = useTranslation('common');
  const { data, isPending, isError, refetch } = useHelpCenter(lang);
  const list = data ?? NO_TOPICS;
  const [expanded, setExpanded] = useState<string | null>(null);
  const firstAnchor = list[0]?.anchor ?? null;

  useEffect(() => {
    if (!open) return;
    const target = anchor && list.some((i) => i.anchor === anchor) ? anchor : firstAnchor;
    setExpanded(target);
    if (target) {
      requestAnimationFrame(() => document.getElementById(`help-${target}`)?.scrollIntoView({ block: 'start' }));
    }
    // Re-run when the topics arrive or the requested anchor changes.
  }, [open, anchor, firstAnchor, list]);

  return (
    <Modal name="helpModal" open={open} onClose={onClose} title={t('w_help')} width={720} height={420}>
      {isPending && <p className="muted">{t('loading')}</p>}
      {isError && (
        <div className="inline-error">
          <p>{t('load_failed')}</p>
          <button type="button" className="btn btn--ghost" onClick={() => void refetch()}>
            {t('retry')}
          </button>
        </div>
      )}
      {!isPending && !isError && list.length === 0 && <p className="muted">{t('help_empty')}</p>}
      <div className="help-list">
        {list.map((item) => {
          const isOpen = expanded === item.anchor;
          return (
            <section key={item.id} id={`help-${item.anchor}`} className={`help-item${isOpen ? ' is-open' : ''}`}>
              <h3 className="help-item__title">
                <button type="button" aria-expanded={isOpen} onClick={() => setExpanded(isOpen ? null : item.anchor)}>
                  <span>{item.title}</span>
                  <span className="help-item__chev" aria-hidden="true">
                    ▾
                  </span>
                </button>
              </h3>
              {isOpen && <div className="help-item__content">{item.content}</div>}
            </section>
          );
        })}
      </div>
    </Modal>
  );
}
