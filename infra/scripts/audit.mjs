// `npm audit` of the production dependencies, for .ci/run: exits 1 when the advisory database
// lists a high or critical advisory for a package the portal ships, 0 when it lists none.
// Exit 3 when the audit could not be performed at all (the registry's advisory endpoint did not
// answer, as on machines that reach only a registry mirror): the caller says so plainly instead of
// counting a check that never ran as passed or failed.
import { spawnSync } from 'node:child_process';

const run = spawnSync('npm', ['audit', '--omit=dev', '--json'], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
let report;
try {
  report = JSON.parse(run.stdout);
} catch {
  console.log(`audit: npm audit printed no JSON (exit ${run.status}): ${(run.stderr || '').split('\n')[0]}`);
  process.exit(3);
}
const counts = report?.metadata?.vulnerabilities;
if (!counts) {
  const why = report?.message ?? report?.error?.summary ?? 'no vulnerability counts in the answer';
  console.log(`audit: NOT PERFORMED, the advisory database did not answer: ${why}`);
  process.exit(3);
}
const serious = (counts.high ?? 0) + (counts.critical ?? 0);
console.log(`audit: production dependencies: ${JSON.stringify(counts)}`);
if (serious > 0) {
  for (const [name, v] of Object.entries(report.vulnerabilities ?? {})) {
    if (v.severity === 'high' || v.severity === 'critical') console.log(`  ${v.severity}: ${name} ${v.range ?? ''}`);
  }
  process.exit(1);
}
