import { useState } from 'react';

function initials(name: string): string {
  return name.split(/[\s_-]+/).filter(Boolean).slice(0, 2).map((w) => w[0]?.toUpperCase() ?? '').join('');
}

/** A vendor or game icon, or its initials when there is none (or it fails to load). */
export function VendorMark({ name, iconUrl, size }: { name: string; iconUrl: string | null; size: number }) {
  const [isBroken, setBroken] = useState(false);
  if (iconUrl && !isBroken) {
    return <img className="game-centre__mark" src={iconUrl} alt="" width={size} height={size} loading="lazy" onError={() => setBroken(true)} />;
  }
  return <span className="game-centre__mark game-centre__mark--text" style={{ width: size, height: size }} aria-hidden="true">{initials(name)}</span>;
}
