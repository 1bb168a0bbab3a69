import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { FEEDBACK_LIMITS, FEEDBACK_STATUSES, charCount } from '@portal/contracts/api/feedback';
import { useAnswerFeedback, useOpsFeedback, useOpsFeedbackImage, type TOpsFeedback } from '../api/feedback';
import { useOpsTime } from '../lib/format';
import { useObjectUrl } from './proof-viewer';
import { useOpsCan } from './ops-gate';
import { ErrorNote, ListTable, OpsField, PageHead, Pager, StatusChip, SuccessNote, Tabs } from './ops-ui';

const PAGE_SIZE = 30;
type Status = (typeof FEEDBACK_STATUSES)[number];
const isStatus = (v: string | null): v is Status => v !== null && (FEEDBACK_STATUSES as readonly string[]).includes(v);

function FeedbackImage({ id, n, label }: { id: string; n: number; label: string }) {
  const img = useOpsFeedbackImage(id, n);
  const url = useObjectUrl(img.data);
  return (
    <figure className="ops-proof ops-feedback__img" data-testid={`ops-feedback-image-${id}-${n}`}>
      {img.isError ? (
        <ErrorNote error={img.error} testId={`ops-feedback-image-error-${id}-${n}`} />
      ) : url ? (
        <a href={url} target="_blank" rel="noreferrer">
          <img src={url} alt={label} className="ops-proof__img" />
        </a>
      ) : (
        <div className="ops-proof__loading" />
      )}
    </figure>
  );
}

function AnswerForm({ f, onDone }: { f: TOpsFeedback; onDone: (f: TOpsFeedback) => void }) {
  const { t } = useTranslation('ops');
  const [text, setText] = useState('');
  const answer = useAnswerFeedback();
  const n = charCount(text.trim());
  const tooLong = n > FEEDBACK_LIMITS.answerMaxChars;
  return (
    <form
      className="ops-feedback__answer"
      onSubmit={(e) => {
        e.preventDefault();
        if (n === 0 || tooLong) return;
        answer.mutate({ id: f.id, answer: text.trim() }, { onSuccess: (v) => { setText(''); onDone(v); } });
      }}
    >
      <OpsField label={t('feedback_answer')} value={text} onChange={setText} multiline testId={`ops-feedback-answer-input-${f.id}`} invalid={tooLong}
        hint={t('feedback_chars', { n, max: FEEDBACK_LIMITS.answerMaxChars })} />
      <ErrorNote error={answer.error} testId={`ops-feedback-answer-error-${f.id}`} />
      <button type="submit" className="ops-btn ops-btn--sm ops-btn--primary" disabled={n === 0 || tooLong || answer.isPending} data-testid={`ops-feedback-answer-send-${f.id}`}>
        {t('feedback_send_answer')}
      </button>
    </form>
  );
}

/** /ops/feedback: players' feedback with their images, answered once (support, administrator). */
export function FeedbackPage() {
  const formatDateTime = useOpsTime();
  const { t } = useTranslation('ops');
  const [params, setParams] = useSearchParams();
  const sp = params.get('status');
  const status: Status = isStatus(sp) ? sp : 'open';
  const [pageNo, setPageNo] = useState(1);
  const list = useOpsFeedback({ status, pageNo, pageSize: PAGE_SIZE });
  const canAnswer = useOpsCan('feedback.answer');
  const [flash, setFlash] = useState('');
  const rows = list.data?.list ?? [];
  return (
    <section className="ops-page" data-testid="ops-feedback-page">
      <PageHead title={t('nav_feedback')}>
        <Tabs value={status} label={t('filter_status')} testPrefix="ops-feedback-tab"
          onChange={(v) => { setPageNo(1); setFlash(''); setParams({ status: v }, { replace: true }); }}
          options={FEEDBACK_STATUSES.map((v) => ({ value: v, label: t(`feedback_status_${v}`) }))} />
      </PageHead>
      <SuccessNote>{flash}</SuccessNote>
      <ErrorNote error={list.error} testId="ops-feedback-error" />
      <ListTable
        list={list}
        rows={rows}
        empty={t('feedback_empty')}
        columns={[
          { label: t('col_id') },
          { label: t('col_created_at') },
          { label: t('col_member') },
          { label: t('feedback_col_content') },
          { label: t('feedback_col_images') },
          { label: t('feedback_col_answer') },
        ]}
        row={(f) => (
          <tr key={f.id} data-testid={`ops-feedback-row-${f.id}`} data-status={f.status}>
            <td className="mono">{f.id}</td>
            <td className="nowrap">{formatDateTime(f.createdAt)}</td>
            <td>
              <span className="strong">{f.account}</span>
              <span className="ops-sub">#{f.memberId}</span>
            </td>
            <td className="ops-details ops-feedback__content">{f.content}</td>
            <td>
              {f.images.length === 0 ? (
                <span className="ops-muted">—</span>
              ) : (
                <div className="ops-feedback__images">
                  {f.images.map((i) => (
                    <FeedbackImage key={i.n} id={f.id} n={i.n} label={t('feedback_image_n', { n: i.n + 1, w: i.width, h: i.height })} />
                  ))}
                </div>
              )}
            </td>
            <td className="ops-feedback__answer-cell">
              {f.status === 'answered' ? (
                <>
                  <StatusChip tone="success" testId={`ops-feedback-status-${f.id}`}>{t('feedback_status_answered')}</StatusChip>
                  <p className="ops-details" data-testid={`ops-feedback-answer-${f.id}`}>{f.answer}</p>
                  <span className="ops-sub">{t('feedback_answered_by', { by: f.answeredBy ?? '—', at: f.answeredAt ? formatDateTime(f.answeredAt) : '' })}</span>
                </>
              ) : canAnswer ? (
                <AnswerForm f={f} onDone={(v) => setFlash(t('feedback_flash', { id: v.id }))} />
              ) : (
                <StatusChip tone="warn" testId={`ops-feedback-status-${f.id}`}>{t('feedback_status_open')}</StatusChip>
              )}
            </td>
          </tr>
        )}
      />
      {list.data && <Pager pageNo={pageNo} pageSize={PAGE_SIZE} total={list.data.total} onPage={setPageNo} testPrefix="ops-feedback-pager" />}
    </section>
  );
}
