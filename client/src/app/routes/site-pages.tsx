/** The content pages' chunk: one lazy import for the site pages of issue 14 (composed here, features stay apart). */
export { SponsorPage } from '../../features/site-pages/components/sponsor-page';
export { DescriptionPage } from '../../features/site-pages/components/description-page';
export { WinnersPage } from '../../features/site-pages/components/winners-page';
export { SeamlessPage } from '../../features/site-pages/components/seamless-page';
export { FeedbackPage } from '../../features/feedback/components/feedback-page';
