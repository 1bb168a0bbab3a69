/** Tiny flag parser for the QA command-line tools: `--name value`, `--flag`, and positionals. */
export function parseArgs(argv: string[]) {
  const flags = new Map<string, string>();
  const positional: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a.startsWith('--')) {
      const [k, inline] = a.slice(2).split('=', 2);
      const next = argv[i + 1];
      if (inline !== undefined) flags.set(k!, inline);
      else if (next !== undefined && !next.startsWith('--')) {
        flags.set(k!, next);
        i++;
      } else flags.set(k!, 'true');
    } else positional.push(a);
  }
  return { flags, positional };
}
