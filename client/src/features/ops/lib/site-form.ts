/** One entry per line (or comma): blank entries dropped, duplicates kept once, order kept. */
export function parseList(text: string): string[] {
  return [...new Set(text.split(/[\n,]/).map((s) => s.trim()).filter(Boolean))];
}

/** Whether an entry is an IPv4/IPv6 address or CIDR subnet (the gateway checks it too). */
export function isCidr(v: string): boolean {
  const [addr, bits, extra] = v.split('/');
  if (extra !== undefined || !addr) return false;
  const v4 = /^(25[0-5]|2[0-4]\d|1?\d?\d)(\.(25[0-5]|2[0-4]\d|1?\d?\d)){3}$/.test(addr);
  const v6 = !v4 && /^[0-9a-fA-F:]+$/.test(addr) && addr.includes(':') && (addr.match(/::/g)?.length ?? 0) <= 1;
  if (!v4 && !v6) return false;
  if (bits === undefined) return true;
  return /^\d{1,3}$/.test(bits) && Number(bits) <= (v4 ? 32 : 128);
}

/** The entries of a list that are not addresses or subnets. */
export const badCidrs = (list: string[]) => list.filter((v) => !isCidr(v));
/** The entries that are not two-letter country codes. */
export const badRegions = (list: string[]) => list.filter((v) => !/^[A-Za-z]{2}$/.test(v));
