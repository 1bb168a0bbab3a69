import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Modal } from '../../../ui/modal';
import { useWithdrawalProof } from '../api/get-withdrawal-proof';
import { ErrorNote } from './ops-ui';

/** An image Blob as an object URL for as long as the component shows it. */
export function useObjectUrl(blob: Blob | undefined): string | null {
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

function ProofImage({ id, n }: { id: string; n: number }) {
  const { t } = useTranslation('ops');
  const proof = useWithdrawalProof(id, n);
  const url = useObjectUrl(proof.data);
  const label = t('proof_n', { n: n + 1 });
  return (
    <figure className="ops-proof" data-testid={`ops-proof-${id}-${n}`}>
      {proof.isError ? (
        <ErrorNote error={proof.error} testId={`ops-proof-error-${id}-${n}`} />
      ) : url ? (
        <a href={url} target="_blank" rel="noreferrer" title={t('proof_open')}>
          <img src={url} alt={label} className="ops-proof__img" />
        </a>
      ) : (
        <div className="ops-proof__loading" aria-label={t('loading')} />
      )}
      <figcaption className="ops-muted">{label}</figcaption>
    </figure>
  );
}

/** The player's proof images of a confirmation, fetched with the operator token. */
export function ProofViewer({ id, count, onClose }: { id: string; count: number; onClose: () => void }) {
  const { t } = useTranslation('ops');
  return (
    <Modal name="opsProofModal" open onClose={onClose} title={t('proofs_title', { id })} width={640} className="ops-dialog">
      <div className="ops-proofs" data-testid="ops-proofs">
        {Array.from({ length: count }, (_, n) => (
          <ProofImage key={n} id={id} n={n} />
        ))}
      </div>
    </Modal>
  );
}
