import { useState } from 'react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Modal } from '../../../ui/modal';
import type { ActionInput } from '../lib/withdrawal-actions';
import { ErrorNote, OpsField } from './ops-ui';

/** A reason or note has at least 2 characters after trimming (ZOpsReasonBody, ZOpsReconcileBody). */
const MIN_TEXT = 2;

export type ActionDialogProps = {
  open: boolean;
  title: string;
  /** What the action applies to: id, member, amount. */
  summary: ReactNode;
  input: ActionInput;
  submitLabel: string;
  tone?: 'primary' | 'danger';
  busy: boolean;
  error: unknown;
  onSubmit: (text: string, payoutReference: string) => void;
  onClose: () => void;
};

/** Confirms one operator action and asks for its reason, note or payout reference. */
export function ActionDialog(props: ActionDialogProps) {
  if (!props.open) return null;
  // Mounted per opening: the inputs start empty every time.
  return <ActionDialogBody {...props} />;
}

function ActionDialogBody({ title, summary, input, submitLabel, tone = 'primary', busy, error, onSubmit, onClose }: ActionDialogProps) {
  const { t } = useTranslation('ops');
  const [text, setText] = useState('');
  const [reference, setReference] = useState('');
  const [isTried, setTried] = useState(false);
  const needsText = input.text === 'reason' || input.text === 'note';
  const isTextOk = !needsText || text.trim().length >= MIN_TEXT;
  const textLabel = input.text === 'reason' ? t('field_reason') : t('field_note');

  return (
    <Modal name="opsActionModal" open onClose={busy ? () => undefined : onClose} title={title} width={440} className="ops-dialog">
      <form
        className="ops-dialog__form"
        onSubmit={(e) => {
          e.preventDefault();
          setTried(true);
          if (isTextOk && !busy) onSubmit(text.trim(), reference.trim());
        }}
        noValidate
      >
        <div className="ops-dialog__summary">{summary}</div>
        {input.text !== 'none' && (
          <OpsField
            label={textLabel}
            value={text}
            onChange={setText}
            testId="ops-dialog-text"
            required={needsText}
            multiline
            maxLength={500}
            invalid={isTried && !isTextOk}
            hint={isTried && !isTextOk ? t('text_too_short', { min: MIN_TEXT }) : undefined}
          />
        )}
        {input.payoutReference && (
          <OpsField label={t('field_payout_reference')} value={reference} onChange={setReference} testId="ops-dialog-reference" maxLength={128} />
        )}
        <ErrorNote error={error} testId="ops-dialog-error" />
        <div className="ops-dialog__actions">
          <button type="button" className="ops-btn" onClick={onClose} disabled={busy} data-testid="ops-dialog-cancel">
            {t('cancel')}
          </button>
          <button type="submit" className={`ops-btn ops-btn--${tone}`} disabled={busy} data-testid="ops-dialog-submit">
            {busy ? t('working') : submitLabel}
          </button>
        </div>
      </form>
    </Modal>
  );
}
