import { Suspense, lazy } from 'react';
import type { ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import { useWhitelabel } from '../../lib/whitelabel';
import { retryImport } from '../../lib/retry-import';

/**
 * The home page is built in features/home (HomePage in components/home-page.tsx). It is loaded
 * through a glob so the shell builds and runs before that file exists.
 */
type HomeModule = { HomePage?: ComponentType };
const homeModules = import.meta.glob<HomeModule>('../../features/home/components/home-page.tsx');
const loadHome = Object.values(homeModules)[0];

function HomeFallback() {
  const { t } = useTranslation('common');
  const { data } = useWhitelabel();
  return (
    <section className="home-fallback container">
      <h1>{data?.brand.siteName ?? ''}</h1>
      <p className="muted">{t('home_preparing')}</p>
    </section>
  );
}

const LazyHome: ComponentType = loadHome
  ? lazy(async () => {
      const mod = await retryImport(loadHome);
      return { default: mod.HomePage ?? HomeFallback };
    })
  : HomeFallback;

export function HomeRoute() {
  return (
    <Suspense fallback={<div className="page-spinner" aria-hidden="true" />}>
      <LazyHome />
    </Suspense>
  );
}
