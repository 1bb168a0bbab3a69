import type { ReactNode } from 'react';

type SectionTitleProps = {
  icon: ReactNode;
  title: string;
  tone?: 'hot' | 'default';
  /** Right-aligned extra, e.g. a "view all" link. */
  action?: ReactNode;
};

export function SectionTitle({ icon, title, tone = 'default', action }: SectionTitleProps) {
  return (
    <div className={`home-title home-title--${tone}`}>
      <span className="home-title__icon">{icon}</span>
      <h2 className="home-title__text">{title}</h2>
      {action && <span className="home-title__action">{action}</span>}
    </div>
  );
}
