/** At most one notice is expanded; choosing the open one again collapses it. */
export function toggleExpanded(current: string | null, id: string): string | null {
  return current === id ? null : id;
}
