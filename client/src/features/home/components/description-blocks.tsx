import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { Icon, type IconName } from './icons';

/** The spec's marketing claims; the figures live in the translations with their wording. */
const BLOCKS: readonly { key: string; icon: IconName }[] = [
  { key: 'games', icon: 'GAMES' },
  { key: 'slots', icon: 'SLOTS' },
  { key: 'service', icon: 'HEADSET' },
  { key: 'licences', icon: 'SHIELD' },
];

export function DescriptionBlocks() {
  const { t } = useTranslation('home');
  return (
    <section className="home-section home-descriptions" data-testid="home-descriptions" aria-label={t('descriptions.title')}>
      {BLOCKS.map((b) => (
        <article key={b.key} className={`home-desc home-desc--${b.key}`}>
          <span className="home-desc__icon"><Icon name={b.icon} /></span>
          <strong className="home-desc__figure">{t(`descriptions.${b.key}.figure`)}</strong>
          <h3 className="home-desc__title">{t(`descriptions.${b.key}.title`)}</h3>
          <p className="home-desc__text">{t(`descriptions.${b.key}.text`)}</p>
        </article>
      ))}
      <Link to="/description" className="home-desc__facts" data-testid="home-desc-facts">{t('descriptions.facts')}</Link>
    </section>
  );
}
