import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FEEDBACK_LIMITS, charCount, type TFeedback } from '@portal/contracts/api/feedback';
import { useQueryClient } from '@tanstack/react-query';
import { errorMessage } from '../../../lib/field-message';
import { useDateTime } from '../../../lib/use-money';
import { useRealtimeEvent } from '../../../realtime/realtime-context';
import { FormMessage } from '../../../ui/form-field';
import { Pager, pagesOf } from '../../../ui/pager';
import { FEEDBACK_KEY, useFeedbackImage, useFeedbackList, useSendFeedback } from '../api/feedback';
import '../../../ui/cashier.css';
import './feedback.css';
import { sniffImageType } from '../../../lib/image-sniff';

/** A Blob or File as an object URL while shown. */
function useObjectUrl(blob: Blob | undefined | null): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!blob) return;
    const u = URL.createObjectURL(blob);
    setUrl(u);
    return () => {
      URL.revokeObjectURL(u);
      setUrl(null);
    };
  }, [blob]);
  return url;
}

/** What the page checks before sending (the server checks the bytes again, and decides). */
export function pickProblem(files: readonly File[]): 'count' | 'size' | 'type' | null {
  if (files.length > FEEDBACK_LIMITS.maxFiles) return 'count';
  if (files.some((f) => f.size > FEEDBACK_LIMITS.maxBytes)) return 'size';
  if (files.some((f) => !/\.(png|jpe?g)$/i.test(f.name) && !['image/png', 'image/jpeg'].includes(f.type))) return 'type';
  return null;
}

/**
 * The text box stops at the limit: a longer text (typed, pasted or dropped) is cut at 140 characters,
 * counted as the counter and the server count them (code points: an emoji is one).
 */
export function clipFeedback(text: string): string {
  const chars = [...text];
  return chars.length > FEEDBACK_LIMITS.maxChars ? chars.slice(0, FEEDBACK_LIMITS.maxChars).join('') : text;
}

/**
 * The box's maxLength: 140 characters. The browser counts UTF-16 units (an emoji is two), so each
 * emoji already in the text adds one, else a text with emoji would stop short of 140 characters.
 */
export function feedbackMaxLength(text: string): number {
  return FEEDBACK_LIMITS.maxChars + (text.length - charCount(text));
}

function Preview({ file, onRemove, label }: { file: File; onRemove: () => void; label: string }) {
  const url = useObjectUrl(file);
  return (
    <li className="fb-thumb">
      {url && <img src={url} alt={file.name} />}
      <button type="button" className="fb-thumb__remove" onClick={onRemove} aria-label={label}>×</button>
    </li>
  );
}

function StoredImage({ id, n, alt }: { id: string; n: number; alt: string }) {
  const img = useFeedbackImage(id, n);
  const url = useObjectUrl(img.data);
  return (
    <li className="fb-thumb" data-testid={`feedback-image-${id}-${n}`}>
      {url ? (
        <a href={url} target="_blank" rel="noreferrer">
          <img src={url} alt={alt} />
        </a>
      ) : (
        <span className="fb-thumb__loading" />
      )}
    </li>
  );
}

function FeedbackItem({ f }: { f: TFeedback }) {
  const { t } = useTranslation('pages');
  const formatDateTime = useDateTime();
  return (
    <li className="fb-item" data-testid={`feedback-${f.id}`} data-status={f.status}>
      <div className="fb-item__head">
        <span className={`fb-status fb-status--${f.status}`}>{t(`feedback_status_${f.status}`)}</span>
        <span className="cx-muted">{formatDateTime(f.createdAt)}</span>
      </div>
      <p className="fb-item__text">{f.content}</p>
      {f.images.length > 0 && (
        <ul className="fb-thumbs">
          {f.images.map((i) => (
            <StoredImage key={i.n} id={f.id} n={i.n} alt={t('feedback_image_alt', { n: i.n + 1 })} />
          ))}
        </ul>
      )}
      {f.answer !== null ? (
        <div className="fb-answer" data-testid={`feedback-answer-${f.id}`}>
          <span className="fb-answer__label">{t('feedback_answer_label')}</span>
          <p>{f.answer}</p>
          {f.answeredAt && <span className="cx-muted">{formatDateTime(f.answeredAt)}</span>}
        </div>
      ) : (
        <p className="cx-muted">{t('feedback_waiting')}</p>
      )}
    </li>
  );
}

/** Feedback (spec section 5): at most 140 characters and up to 3 png or jpg images; the history with the operators' answers. */
export function FeedbackPage() {
  const { t } = useTranslation('pages');
  const [text, setText] = useState('');
  const [files, setFiles] = useState<File[]>([]);
  const [pickError, setPickError] = useState<string | null>(null);
  const [sent, setSent] = useState(false);
  const [page, setPage] = useState(1);
  const send = useSendFeedback();
  const list = useFeedbackList(page);
  const qc = useQueryClient();
  // An operator's answer arrives as a message: the history refreshes at once.
  useRealtimeEvent('message.received', (env) => {
    if (env.payload.kind === 'feedback_answered') void qc.invalidateQueries({ queryKey: FEEDBACK_KEY });
  });
  const n = charCount(text.trim());
  const tooLong = n > FEEDBACK_LIMITS.maxChars;
  const canSend = n > 0 && !tooLong && !send.isPending;

  const addFiles = async (picked: FileList | null) => {
    if (!picked) return;
    const added = Array.from(picked);
    const next = [...files, ...added];
    // Typed by name first, then by content: a text file called screen.png is refused here, not after Send.
    const problem = pickProblem(next) ?? ((await Promise.all(added.map(sniffImageType))).some((x) => x === null) ? 'type' : null);
    if (problem) {
      setPickError(t(`feedback_pick_${problem}`, { max: FEEDBACK_LIMITS.maxFiles }));
      return;
    }
    setPickError(null);
    setFiles(next);
  };

  return (
    <section className="container feedback-page" data-testid="feedback-page">
      <header className="page-head">
        <h1>{t('feedback_title')}</h1>
        <p className="muted">{t('feedback_intro')}</p>
      </header>
      <div className="fb-grid">
        <form
          className="fb-card fb-form"
          onSubmit={(e) => {
            e.preventDefault();
            if (!canSend) return;
            setSent(false);
            send.mutate({ content: text.trim(), images: files }, {
              onSuccess: () => {
                setText('');
                setFiles([]);
                // The refused pick is no longer the form's problem: it was sent without it.
                setPickError(null);
                setSent(true);
                setPage(1);
              },
            });
          }}
        >
          <label className="fb-label" htmlFor="feedback-text">{t('feedback_text_label')}</label>
          <textarea
            id="feedback-text"
            className="fb-textarea"
            value={text}
            onChange={(e) => { setText(clipFeedback(e.target.value)); setSent(false); }}
            maxLength={feedbackMaxLength(text)}
            rows={5}
            placeholder={t('feedback_placeholder')}
            aria-invalid={tooLong || undefined}
            data-testid="feedback-text"
          />
          <p className={`fb-counter${tooLong ? ' fb-counter--over' : ''}`} data-testid="feedback-counter">
            {t('feedback_counter', { n, max: FEEDBACK_LIMITS.maxChars })}
          </p>
          <div className="fb-files">
            <label className={`btn btn--outline btn--sm${files.length >= FEEDBACK_LIMITS.maxFiles ? ' is-disabled' : ''}`}>
              {t('feedback_add_images')}
              <input
                type="file"
                accept="image/png,image/jpeg"
                multiple
                hidden
                disabled={files.length >= FEEDBACK_LIMITS.maxFiles}
                onChange={(e) => { void addFiles(e.target.files); e.target.value = ''; }}
                data-testid="feedback-files"
              />
            </label>
            <span className="cx-muted">{t('feedback_image_rules', { max: FEEDBACK_LIMITS.maxFiles })}</span>
          </div>
          {files.length > 0 && (
            <ul className="fb-thumbs" data-testid="feedback-previews">
              {files.map((f, i) => (
                <Preview key={`${f.name}-${i}`} file={f} label={t('feedback_remove_image')} onRemove={() => setFiles(files.filter((_, j) => j !== i))} />
              ))}
            </ul>
          )}
          {pickError && <p className="form-message form-message--error" role="alert" data-testid="feedback-pick-error">{pickError}</p>}
          {send.error && <FormMessage message={errorMessage(send.error)} />}
          {sent && <p className="form-message form-message--success" role="status" data-testid="feedback-sent">{t('feedback_sent')}</p>}
          <button type="submit" className="btn btn--primary" disabled={!canSend} data-testid="feedback-submit">
            {send.isPending ? t('feedback_sending') : t('feedback_submit')}
          </button>
        </form>
        <div className="fb-card fb-history">
          <h2 className="fb-title">{t('feedback_history')}</h2>
          {list.error && <FormMessage message={errorMessage(list.error)} />}
          {list.data && list.data.list.length === 0 ? (
            <p className="cx-empty">{t('feedback_none')}</p>
          ) : (
            <ul className="fb-list" data-testid="feedback-list">
              {(list.data?.list ?? []).map((f) => <FeedbackItem key={f.id} f={f} />)}
            </ul>
          )}
          <Pager page={page} pages={pagesOf(list.data)} onPage={setPage} prefix="feedback" />
        </div>
      </div>
    </section>
  );
}
