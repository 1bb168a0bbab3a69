import { createStore, useStore } from './store';
import { readStorage, writeStorage } from './storage';

/**
 * The break a player has just started on the responsible-gaming page (cooling-off or self-exclusion).
 * Starting one ends every session at once, so the page that asked for it is signed out the moment it
 * succeeds: this note (kept in the tab's session storage, so a reload keeps it) lets the layout say what
 * happened instead of leaving the player at a sign-in form with no word about the break.
 */
export type BreakNote = { kind: 'cooling' | 'self'; endsAt: string | null };

const KEY = 'rg:breakStarted';

function parse(raw: string | null): BreakNote | null {
  if (!raw) return null;
  try {
    const v = JSON.parse(raw) as Partial<BreakNote>;
    if ((v.kind === 'cooling' || v.kind === 'self') && (v.endsAt === null || typeof v.endsAt === 'string')) return { kind: v.kind, endsAt: v.endsAt };
  } catch {
    // a broken value reads as no note
  }
  return null;
}

const store = createStore<BreakNote | null>(parse(readStorage('session', KEY)));

/** Remember the break just started (null: the player closed the note). */
export function setBreakNote(note: BreakNote | null): void {
  writeStorage('session', KEY, note ? JSON.stringify(note) : null);
  store.set(note);
}

export function getBreakNote(): BreakNote | null {
  return store.get();
}

export function useBreakNote(): BreakNote | null {
  return useStore(store);
}
