/**
 * Writes infra/seed/catalogue.json: a deterministic demo catalogue of about 10,500 games over every
 * product line (names are generated, the structure is the real one). Same input, same file:
 *   node --import tsx gateway/src/cli/catalogue-generate.ts [out]
 *
 * Node ids follow the demo seed's scheme (`${vassalage}-${gameCode}`), so this catalogue replaces the demo
 * seed's games of the same vendors instead of duplicating them. The house vendor (HOUSE) is not in it: the
 * house provider registers its own games.
 */
import { writeFile } from 'node:fs/promises';
import { CATALOGUE_FILE, ZCatalogueFile, type TCatalogueFile, type TCatalogueGameRow } from '../modules/games/catalogue.ts';
import type { GameType, RngClassify } from '@portal/contracts/domain/constants';

type VendorSpec = { vassalage: string; gameType: GameType; displayName: string; games: number; lobby?: boolean };

const VENDORS: VendorSpec[] = [
  { vassalage: 'SBX', gameType: 'SPORTS', displayName: 'Sportsbook X', games: 6, lobby: true },
  { vassalage: 'BTA', gameType: 'SPORTS', displayName: 'Bet Arena', games: 6, lobby: true },
  { vassalage: 'CMD', gameType: 'SPORTS', displayName: 'CMD Sports', games: 6, lobby: true },
  { vassalage: 'AV', gameType: 'ESPORTS', displayName: 'AV Esports', games: 5, lobby: true },
  { vassalage: 'IMES', gameType: 'ESPORTS', displayName: 'IM Esports', games: 5, lobby: true },
  { vassalage: 'IA', gameType: 'ESPORTS', displayName: 'IA Esports', games: 5, lobby: true },
  { vassalage: 'AI', gameType: 'ESPORTS', displayName: 'AI Esports', games: 5, lobby: true },
  { vassalage: 'TF', gameType: 'ESPORTS', displayName: 'TF Gaming', games: 5, lobby: true },
  { vassalage: 'MNL', gameType: 'LIVE', displayName: 'Manila Live', games: 40, lobby: true },
  { vassalage: 'RYL', gameType: 'LIVE', displayName: 'Royal Live', games: 40 },
  { vassalage: 'SXY', gameType: 'LIVE', displayName: 'Sexy Live', games: 30 },
  { vassalage: 'DGL', gameType: 'LIVE', displayName: 'Dream Live', games: 30 },
  { vassalage: 'TCG', gameType: 'LOTT', displayName: 'TCG Lottery', games: 20 },
  { vassalage: 'TCG_SEA', gameType: 'LOTT', displayName: 'SEA Lottery', games: 20 },
  { vassalage: 'TCG_LOTTO_VN', gameType: 'LOTT', displayName: 'Vietnam Lottery', games: 20 },
  { vassalage: 'ELT', gameType: 'ELOTT', displayName: 'E-Lotto', games: 24 },
  { vassalage: 'GPK', gameType: 'ELOTT', displayName: 'GP Keno', games: 24 },
  { vassalage: 'JL', gameType: 'FISH', displayName: 'JILI Fishing', games: 30 },
  { vassalage: 'FFH', gameType: 'FISH', displayName: 'Fa Fa Fishing', games: 30 },
  { vassalage: 'SFH', gameType: 'FISH', displayName: 'Sea Hunter', games: 20 },
  { vassalage: 'JL', gameType: 'PVP', displayName: 'JILI Cards', games: 40 },
  { vassalage: 'KGP', gameType: 'PVP', displayName: 'King Poker', games: 40 },
  { vassalage: 'TPG', gameType: 'PVP', displayName: 'Tongits Go', games: 30 },
  // RNG slots: 10,000 games over sixteen providers (CQN is opened through its own lobby popup).
  ...(
    [
      ['JL', 'JILI Slots'], ['PCK', 'Pocket Slots'], ['FCH', 'Fa Chai'], ['HBN', 'Habanera'], ['RSG', 'RSG Slots'], ['SPD', 'Spadex'],
      ['BNG', 'Bongo'], ['PLY', 'Playsun'], ['NLM', 'Nolimit Reels'], ['YGG', 'Yggo'], ['KAG', 'Ka Gaming'], ['CQN', 'CQ Nine'],
      ['RTG', 'Reel Time'], ['MGX', 'Mega Spin'], ['PGS', 'Pinoy Games'], ['BTG', 'Big Time Reels'],
    ] as const
  ).map(([vassalage, displayName]): VendorSpec => ({ vassalage, gameType: 'RNG', displayName, games: 625, lobby: vassalage === 'CQN' })),
  { vassalage: 'DS88', gameType: 'COCKFIGHT', displayName: 'DS88 Sabong', games: 3 },
  { vassalage: 'DIG', gameType: 'COCKFIGHT', displayName: 'Digmaan', games: 3 },
];

const SLOT_A = [
  'Golden', 'Lucky', 'Dragon', 'Fortune', 'Mega', 'Royal', 'Wild', 'Jungle', 'Ocean', 'Fire', 'Crazy', 'Super', 'Magic', 'Diamond', 'Neon',
  'Pirate', 'Samurai', 'Aztec', 'Panda', 'Tiger', 'Mystic', 'Cosmic', 'Thunder', 'Ruby', 'Jade', 'Pharaoh', 'Viking', 'Candy', 'Sakura',
  'Island', 'Phoenix', 'Emerald', 'Sapphire', 'Buffalo', 'Lion', 'Monkey', 'Koi', 'Carabao', 'Manila', 'Boracay',
];
const SLOT_B = [
  'Empire', 'Riches', 'Bonanza', 'Treasure', 'Fever', 'Party', 'Legend', 'Quest', 'Spins', 'Jackpot', 'Rush', 'Kingdom', 'Gems', 'Blast',
  'Wheel', 'Dream', 'Hunter', 'Carnival', 'Coins', 'Storm', 'Temple', 'Safari', 'Fiesta', 'Reels', 'Vault', 'Express', 'Palace', 'Gold',
  'Wins', 'Nights', 'Festival', 'Voyage', 'Frenzy', 'Galaxy', 'Harvest', 'Bounty', 'Charms', 'Fortress', 'Rumble', 'Heist',
];
const SLOT_C = ['', '', '', '', 'Deluxe', 'Megaways', 'Hold & Win', 'Xmas', '2', '3', 'Extreme', 'Power', 'Gold Edition', 'Lightning'];
const TYPE_NAMES: Record<string, string[]> = {
  SPORTS: ['Sportsbook', 'Live Betting', 'Virtual Football', 'Basketball Center', 'PBA Live', 'Boxing Night'],
  ESPORTS: ['Esports Arena', 'MOBA League', 'Shooter Cup', 'MLBB Masters', 'Dota Showdown'],
  LIVE: ['Baccarat', 'Speed Baccarat', 'Dragon Tiger', 'Roulette', 'Sic Bo', 'Blackjack', 'Color Game', 'Fan Tan', 'Teen Patti', 'Andar Bahar'],
  LOTT: ['Lotto 6/45', 'Lotto 6/55', 'Super Lotto', 'Quick 3D', 'Keno', 'Daily 4D', 'Grand Lotto 6/58', 'Swertres', 'EZ2'],
  ELOTT: ['Fast 3', 'Pick 5', 'Lucky 10', 'Keno 80', 'Speed Lotto', 'Racing 10'],
  FISH: ['Ocean King', 'Fishing War', 'Jackpot Fishing', 'Dragon Fishing', 'Mega Fishing', 'Boom Legend', 'Happy Fishing', 'All-star Fishing'],
  PVP: ['Tongits', 'Pusoy', 'Poker King', 'Rummy', 'Teen Patti', 'Baccarat Duel', 'Niu Niu', 'Sabong Cards', 'Pusoy Dos', 'Lucky 9'],
  COCKFIGHT: ['Sabong Live', 'Derby Night', 'World Slasher Cup'],
};
/** Minimum bets in centavos by product line. */
const MIN_BETS: Record<GameType, number[]> = {
  RNG: [10, 20, 50, 100, 200, 500], FISH: [10, 50, 100], PVP: [100, 500, 1000, 2000], LIVE: [1000, 2000, 5000, 10000],
  SPORTS: [1000], ESPORTS: [1000], LOTT: [200, 500, 1000], ELOTT: [100, 200, 500], COCKFIGHT: [5000, 10000],
};
/** About one slot in twelve in each RNG sub-category; the rest are plain video slots (no classify). */
function classifyOf(h: number): RngClassify | null {
  const r = h % 24;
  return r === 0 || r === 1 ? 'SC' : r === 2 || r === 3 ? 'JP' : r === 4 || r === 5 ? 'TG' : r === 6 || r === 7 ? 'AC' : r === 8 || r === 9 ? 'BG' : null;
}

/** A small deterministic hash (FNV-1a) so names and bets do not depend on Math.random. */
function fnv(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

const icon = (vassalage: string, gameCode: string, name: string) => `/img/game/${vassalage}/${gameCode}.svg?n=${encodeURIComponent(name)}`;
const vendorIcon = (vassalage: string, name: string) => `/img/vendor/${vassalage}.svg?n=${encodeURIComponent(name)}`;

/**
 * Hot games: ranks 1..30 over the first games of a mix of lines. Rank 8 is left out: the demo seed gives it
 * to the house live game, which this catalogue does not touch.
 */
const HOT = [
  'SBX-SP001', 'BTA-SP001', 'AV-ES001', 'IMES-ES001', 'IA-ES001', 'AI-ES001', 'TF-ES001', null, 'MNL-LI001', 'RYL-LI001',
  'TCG_SEA-LO001', 'TCG_LOTTO_VN-LO001', 'JL-RN001', 'PCK-RN001', 'FCH-RN001', 'JL-FI001', 'JL-PV001', 'HBN-RN001', 'ELT-EL001', 'DS88-CO001',
  'RSG-RN001', 'SPD-RN001', 'FFH-FI001', 'KGP-PV001', 'SXY-LI001', 'BNG-RN001', 'PLY-RN001', 'TCG-LO001', 'DIG-CO001', 'YGG-RN001',
];

export function generateCatalogue(): TCatalogueFile {
  const hotRank = new Map(HOT.flatMap((id, i) => (id ? [[id, i + 1] as const] : [])));
  const vendors = VENDORS.map((v, i) => ({
    vassalage: v.vassalage, gameType: v.gameType, gameCategory: v.gameType === 'RNG' ? 'SLOT' : v.gameType, displayName: v.displayName,
    // Spec: vendor icon images are excluded for TCG_SEA.
    iconUrl: v.vassalage === 'TCG_SEA' ? null : vendorIcon(v.vassalage, v.displayName),
    // After the demo seed's own vendors (sort 0..99), so the house vendors stay first in their lanes.
    sort: 100 + i,
  }));
  const games: TCatalogueGameRow[] = [];
  const usedNames = new Set<string>();
  for (const v of VENDORS) {
    if (v.lobby) {
      games.push({
        nodeId: `${v.vassalage}-${v.gameType}-LOBBY`, vassalage: v.vassalage, gameCode: `${v.gameType}-LOBBY`, isGame: 'VASSALAGE',
        gameType: v.gameType, gameClassify: null, gameName: v.displayName, iconUrl: vendorIcon(v.vassalage, v.displayName),
        hotRank: null, minBet: null, sort: -1,
      });
    }
    for (let i = 0; i < v.games; i++) {
      const gameCode = `${v.gameType.slice(0, 2)}${String(i + 1).padStart(3, '0')}`;
      const nodeId = `${v.vassalage}-${gameCode}`;
      const h = fnv(nodeId);
      let name: string;
      if (v.gameType === 'RNG') {
        // Distinct slot names across the catalogue: walk the word grid from the hash until a free one.
        let k = h;
        do {
          const suffix = SLOT_C[(k >>> 16) % SLOT_C.length];
          name = `${SLOT_A[k % SLOT_A.length]} ${SLOT_B[(k >>> 8) % SLOT_B.length]}${suffix ? ` ${suffix}` : ''}`;
          k = fnv(`${k}`);
        } while (usedNames.has(name));
        usedNames.add(name);
      } else {
        const names = TYPE_NAMES[v.gameType] ?? ['Game'];
        const base = names[i % names.length]!;
        name = i >= names.length ? `${base} ${Math.floor(i / names.length) + 1}` : base;
      }
      const bets = MIN_BETS[v.gameType];
      games.push({
        nodeId, vassalage: v.vassalage, gameCode, isGame: 'GAME', gameType: v.gameType,
        gameClassify: v.gameType === 'RNG' ? classifyOf(h >>> 3) : null,
        gameName: name, iconUrl: icon(v.vassalage, gameCode, name), hotRank: hotRank.get(nodeId) ?? null,
        minBet: bets[h % bets.length]!, sort: i,
      });
    }
  }
  return ZCatalogueFile.parse({ version: 1, vendors, games });
}

/** One vendor or game per line: diffable, and well under 3 MB. */
export function stringifyCatalogue(c: TCatalogueFile): string {
  const lines = (xs: unknown[]) => xs.map((x) => `    ${JSON.stringify(x)}`).join(',\n');
  return `{\n  "version": ${c.version},\n  "vendors": [\n${lines(c.vendors)}\n  ],\n  "games": [\n${lines(c.games)}\n  ]\n}\n`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const out = process.argv[2] ?? CATALOGUE_FILE;
  const c = generateCatalogue();
  const text = stringifyCatalogue(c);
  await writeFile(out, text);
  const slots = c.games.filter((g) => g.gameType === 'RNG').length;
  console.log(`wrote ${out}: ${c.vendors.length} vendors, ${c.games.length} games (${slots} RNG), ${(text.length / 1024 / 1024).toFixed(2)} MB`);
}
