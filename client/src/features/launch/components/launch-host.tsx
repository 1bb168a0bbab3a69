import { useEffect, useState } from 'react';
import { useVendorName } from '../../../lib/vendor-names';
import { useQuery } from '@tanstack/react-query';
import { useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { createActor, fromPromise } from 'xstate';
import type { SnapshotFrom } from 'xstate';
import type { TGame } from '@portal/contracts/api/games';
import { Modal } from '../../../ui/modal';
import { finishLaunch, useLaunchRequest } from '../../../lib/game-launch';
import { useIsLoggedIn } from '../../../lib/session';
import { getLoginFlags } from '../../../lib/login-state';
import { useRgExclusion } from '../../../lib/rg-exclusion';
import { ExclusionNotice } from '../../../ui/exclusion-notice';
import { openPopup } from '../../../lib/popups';
import { withLang } from '../../../lib/with-lang';
import { errorKey } from '../../../lib/error-key';
import { TrialRegisterButton } from '../../auth/components/trial-register-button';
import { launchMachine } from '../machines/launch.machine';
import { launchGame } from '../api/launch-game';
import { getMaintenanceSuggestions, getProviderGames } from '../api/get-suggestions';
import { useSimulatedVendors } from '../../games/api/get-game-vendors';
import './launch.css';

type LaunchActor = ReturnType<typeof createActor<typeof launchMachine>>;

/**
 * Runs the launch machine for each card click (lib/game-launch `requestLaunch`) and shows its
 * dialogs. Mounted once by the app shell.
 */
export function LaunchHost() {
  const request = useLaunchRequest();
  const isLoggedIn = useIsLoggedIn();
  const exclusion = useRgExclusion();
  const navigate = useNavigate();
  const { i18n } = useTranslation();
  const [actor, setActor] = useState<LaunchActor | null>(null);
  const [snapshot, setSnapshot] = useState<SnapshotFrom<typeof launchMachine> | null>(null);

  useEffect(() => {
    if (!request) return;
    const next = createActor(
      launchMachine.provide({
        actors: {
          launch: fromPromise(({ input }) => launchGame(input)),
          loadSuggestions: fromPromise(({ input }) => getMaintenanceSuggestions(input.game)),
        },
        actions: {
          openLoginPopup: () => openPopup('loginPopupModal'),
          navigate: (_, p) => navigate(p.path),
          // House games open in this tab (/house/play?...); kept simple for every provider.
          // The game page gets the portal's language (EN or TY).
          openUrl: (_, p) => window.location.assign(withLang(p.url, i18n.language)),
        },
      }),
      { input: { isLoggedIn, isTrial: getLoginFlags().isTrial, target: request.target, exclusion } },
    );
    const { seq } = request;
    const sub = next.subscribe((s) => {
      setSnapshot(s);
      if (s.status === 'done') finishLaunch(seq);
    });
    next.start();
    setActor(next);
    setSnapshot(next.getSnapshot());
    return () => {
      sub.unsubscribe();
      next.stop();
    };
    // A new request (seq) starts a new launch; login changes do not restart one.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [request?.seq]);

  if (!actor || !snapshot) return null;
  const close = () => actor.send({ type: 'CLOSE' });
  const pick = (game: TGame) => actor.send({ type: 'PICK', game });
  return <LaunchDialogs snapshot={snapshot} onClose={close} onPick={pick} onRetry={() => actor.send({ type: 'RETRY' })} />;
}

function LaunchDialogs({
  snapshot, onClose, onPick, onRetry,
}: {
  snapshot: SnapshotFrom<typeof launchMachine>;
  onClose: () => void;
  onPick: (game: TGame) => void;
  onRetry: () => void;
}) {
  const { t } = useTranslation('games');
  const { t: tc } = useTranslation('common');
  const vendorName = useVendorName();
  const { target, suggestions, error, exclusion } = snapshot.context;
  const game = target.kind === 'game' ? target.game : null;
  const simulated = useSimulatedVendors();
  return (
    <>
      <Modal name="in_need_true_account" open={snapshot.matches('trialDenied')} onClose={onClose} showClose={false} width={340} height={160}>
        <div className="launch-dialog" role="alertdialog" data-testid="launch-trial-dialog">
          <span className="launch-dialog__icon" aria-hidden="true">i</span>
          <p className="launch-dialog__text">{t('launch.trialRequired')}</p>
          <TrialRegisterButton onClick={onClose} />
          <button type="button" className="btn btn--ghost btn--block" onClick={onClose}>{t('launch.confirm')}</button>
        </div>
      </Modal>
      <Modal name="gameExcluded" open={snapshot.matches('excluded')} onClose={onClose} title={game?.gameName} width={400}>
        <div className="launch-dialog" data-testid="launch-dialog-excluded">
          {exclusion && <ExclusionNotice exclusion={exclusion} place="games" compact onLeave={onClose} />}
          <button type="button" className="btn btn--primary btn--block" onClick={onClose}>{t('launch.ok')}</button>
        </div>
      </Modal>
      <Modal name="gameLaunching" open={snapshot.matches('launching') || snapshot.matches('opened')} onClose={onClose} showClose={false} width={300} height={120}>
        <div className="launch-dialog" role="status" data-testid="launch-dialog-launching">
          <span className="page-spinner" aria-hidden="true" />
          <p className="launch-dialog__text">{t('launch.opening', { name: game?.gameName ?? '' })}</p>
          {game && simulated.has(game.vassalage) && (
            <p className="launch-dialog__sub" data-testid="launch-simulated">{t('launch.simulated')}</p>
          )}
        </div>
      </Modal>
      <Modal name="gameMaintenance" open={snapshot.matches('maintenance')} onClose={onClose} title={t('launch.maintenanceTitle')} width={420}>
        <div className="launch-dialog" data-testid="launch-dialog-maintenance">
          <p className="launch-dialog__text">{t('launch.maintenanceText', { name: game?.gameName ?? '' })}</p>
          {snapshot.matches({ maintenance: 'loading' }) ? (
            <span className="page-spinner" aria-hidden="true" />
          ) : suggestions.length > 0 ? (
            <>
              <p className="launch-dialog__sub">{t('launch.tryOthers')}</p>
              <ul className="launch-suggestions">
                {suggestions.map((g) => (
                  <li key={g.nodeId}>
                    <button type="button" className="launch-suggestion" onClick={() => onPick(g)} data-testid={`launch-suggestion-${g.nodeId}`}>
                      {g.iconUrl ? <img src={g.iconUrl} alt="" loading="lazy" /> : <span className="launch-suggestion__ph" aria-hidden="true">{g.gameName.slice(0, 2)}</span>}
                      <span className="launch-suggestion__name">{g.gameName}</span>
                    </button>
                  </li>
                ))}
              </ul>
            </>
          ) : (
            <p className="launch-dialog__sub">{t('launch.noOthers')}</p>
          )}
        </div>
      </Modal>
      <Modal name="gameNotConnected" open={snapshot.matches('notConnected')} onClose={onClose} title={t('launch.notConnectedTitle')} width={380}>
        <div className="launch-dialog" data-testid="launch-dialog-not-connected">
          <span className="launch-dialog__icon" aria-hidden="true">i</span>
          <p className="launch-dialog__text">{t('launch.notConnectedText', { vendor: game ? vendorName(game.vassalage, game.gameType) : '' })}</p>
          <button type="button" className="btn btn--primary btn--block" onClick={onClose}>{t('launch.ok')}</button>
        </div>
      </Modal>
      <Modal name="gameLaunchFailed" open={snapshot.matches('failed')} onClose={onClose} title={t('launch.failedTitle')} width={360}>
        <div className="launch-dialog" data-testid="launch-dialog-failed">
          <p className="launch-dialog__text">{tc(errorKey(error))}</p>
          <button type="button" className="btn btn--primary btn--block" onClick={onRetry}>{t('launch.retry')}</button>
        </div>
      </Modal>
      <Modal name="vassalagePopup" open={snapshot.matches('providerList')} onClose={onClose} title={game?.gameName} width={640}>
        {game && snapshot.matches('providerList') && <ProviderGames game={game} onPick={onPick} />}
      </Modal>
    </>
  );
}

function ProviderGames({ game, onPick }: { game: TGame; onPick: (game: TGame) => void }) {
  const { t } = useTranslation('games');
  const { t: tc } = useTranslation('common');
  const query = useQuery({
    queryKey: ['launch', 'providerGames', game.vassalage, game.gameType],
    queryFn: ({ signal }) => getProviderGames(game, signal),
    staleTime: 60_000,
  });
  return (
    <div className="launch-dialog" data-testid="vassalage-popup">
      {query.isPending && <span className="page-spinner" aria-hidden="true" />}
      {query.isError && <p className="launch-dialog__text">{tc(errorKey(query.error))}</p>}
      {query.data && query.data.length === 0 && <p className="launch-dialog__text">{t('centre.empty')}</p>}
      {query.data && query.data.length > 0 && (
        <ul className="launch-suggestions launch-suggestions--wide">
          {query.data.map((g) => (
            <li key={g.nodeId}>
              <button type="button" className="launch-suggestion" onClick={() => onPick(g)} disabled={g.maintenance}>
                {g.iconUrl ? <img src={g.iconUrl} alt="" loading="lazy" /> : <span className="launch-suggestion__ph" aria-hidden="true">{g.gameName.slice(0, 2)}</span>}
                <span className="launch-suggestion__name">{g.gameName}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
