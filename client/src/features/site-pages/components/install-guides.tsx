import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import './site-pages.css';
import './install-guides.css';

/** A phone outline with a picture of the step on its screen (SVG, no image files). */
function Phone({ children, label }: { children: ReactNode; label: string }) {
  return (
    <svg viewBox="0 0 120 200" className="guide-phone" role="img" aria-label={label}>
      <rect x="6" y="4" width="108" height="192" rx="18" className="guide-phone__body" />
      <rect x="14" y="20" width="92" height="160" rx="6" className="guide-phone__screen" />
      <rect x="46" y="10" width="28" height="4" rx="2" className="guide-phone__notch" />
      {children}
    </svg>
  );
}

const SHARE = (
  <g className="guide-accent">
    <rect x="48" y="150" width="24" height="20" rx="3" fill="none" strokeWidth="3" />
    <path d="M60 136v24M52 144l8-8 8 8" fill="none" strokeWidth="3" strokeLinecap="round" strokeLinejoin="round" />
  </g>
);
const PLUS_TILE = (
  <g>
    <rect x="30" y="60" width="60" height="60" rx="14" className="guide-tile" />
    <path d="M60 74v32M44 90h32" className="guide-accent" strokeWidth="6" strokeLinecap="round" />
  </g>
);
const DOWNLOAD = (
  <g className="guide-accent" fill="none" strokeWidth="5" strokeLinecap="round" strokeLinejoin="round">
    <path d="M60 60v50M42 94l18 18 18-18" />
    <path d="M36 126h48" />
  </g>
);
const GEAR = (
  <g className="guide-accent" fill="none" strokeWidth="5">
    <circle cx="60" cy="96" r="14" />
    <path d="M60 66v10M60 116v10M30 96h10M80 96h10M39 75l7 7M74 110l7 7M39 117l7-7M74 82l7-7" strokeLinecap="round" />
  </g>
);
const CHECK = (
  <g>
    <circle cx="60" cy="96" r="26" className="guide-tile" />
    <path d="M47 97l9 9 18-20" className="guide-accent" fill="none" strokeWidth="6" strokeLinecap="round" strokeLinejoin="round" />
  </g>
);
const MENU = (
  <g className="guide-accent-fill">
    <circle cx="96" cy="32" r="3.5" />
    <circle cx="96" cy="42" r="3.5" />
    <circle cx="96" cy="52" r="3.5" />
    <rect x="30" y="66" width="64" height="12" rx="4" className="guide-tile" />
    <rect x="30" y="84" width="64" height="12" rx="4" className="guide-highlight" />
    <rect x="30" y="102" width="64" height="12" rx="4" className="guide-tile" />
  </g>
);

type Step = { key: string; art: ReactNode };
const IOS_APP: Step[] = [
  { key: 'ios_1', art: DOWNLOAD },
  { key: 'ios_2', art: CHECK },
  { key: 'ios_3', art: GEAR },
  { key: 'ios_4', art: PLUS_TILE },
];
const LITE_IOS: Step[] = [
  { key: 'lite_ios_1', art: SHARE },
  { key: 'lite_ios_2', art: PLUS_TILE },
  { key: 'lite_ios_3', art: CHECK },
];
const LITE_ANDROID: Step[] = [
  { key: 'lite_android_1', art: MENU },
  { key: 'lite_android_2', art: PLUS_TILE },
  { key: 'lite_android_3', art: CHECK },
];

function Steps({ steps, testId }: { steps: Step[]; testId: string }) {
  const { t } = useTranslation('pages');
  return (
    <ol className="guide-steps" data-testid={testId}>
      {steps.map((s, i) => (
        <li key={s.key} className="guide-step">
          <Phone label={t(`guide_${s.key}_title`)}>{s.art}</Phone>
          <div>
            <span className="guide-step__n">{i + 1}</span>
            <h3>{t(`guide_${s.key}_title`)}</h3>
            <p>{t(`guide_${s.key}_text`)}</p>
          </div>
        </li>
      ))}
    </ol>
  );
}

/** The iOS install guide and the lite-app (home-screen web app) guide of /down. */
export function InstallGuides() {
  const { t } = useTranslation('pages');
  return (
    <div className="guides">
      <section className="guide" id="ios-guide" aria-labelledby="guide-ios-title">
        <h2 id="guide-ios-title">{t('guide_ios_title')}</h2>
        <p className="muted">{t('guide_ios_intro')}</p>
        <Steps steps={IOS_APP} testId="guide-ios" />
      </section>
      <section className="guide" id="lite-guide" aria-labelledby="guide-lite-title">
        <h2 id="guide-lite-title">{t('guide_lite_title')}</h2>
        <p className="muted">{t('guide_lite_intro')}</p>
        <h3 className="guide-sub">{t('guide_lite_ios')}</h3>
        <Steps steps={LITE_IOS} testId="guide-lite-ios" />
        <h3 className="guide-sub">{t('guide_lite_android')}</h3>
        <Steps steps={LITE_ANDROID} testId="guide-lite-android" />
      </section>
    </div>
  );
}
