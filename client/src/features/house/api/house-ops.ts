import { houseCalls, type THouseGameCode } from '@portal/contracts/api/house';
import { houseCall } from './house-call';

/** A launch code is good once: StrictMode's second effect run (or a remount) reuses the first trade. */
const opening = new Map<string, ReturnType<typeof tradeCode>>();
const tradeCode = (token: string, game: THouseGameCode) => houseCall(houseCalls.open, { body: { token, game } });

/** POST /house/api/session: trade the one-time launch code for a house game session (once per code). */
export const openHouseSession = (token: string, game: THouseGameCode) => {
  const key = `${game}:${token}`;
  let p = opening.get(key);
  if (!p) {
    p = tradeCode(token, game);
    opening.set(key, p);
  }
  return p;
};
/** POST /house/api/freeplay: a play-money session (FREEPLAY3). */
export const openFreePlay = (game: THouseGameCode) => houseCall(houseCalls.freePlay, { body: { game } });
/** POST /house/api/state: this game's session again (balance, seed hash); refused when the page has none for this game. */
export const getHouseState = (game: THouseGameCode) => houseCall(houseCalls.state, { body: { game } });
/** POST /house/api/slot/spin. */
export const spinSlot = (stake: number) => houseCall(houseCalls.spin, { body: { stake } });
/** POST /house/api/seed: reveal the current server seed and start a new one. */
export const rotateSeed = (clientSeed?: string) => houseCall(houseCalls.rotateSeed, { body: clientSeed ? { clientSeed } : {} });
/** POST /house/api/baccarat/state: the table's current round, my bets, balance. */
export const getBaccaratState = () => houseCall(houseCalls.baccaratState, { body: {} });
/** POST /house/api/baccarat/bet. */
export const placeBaccaratBet = (side: 'player' | 'banker' | 'tie', stake: number) => houseCall(houseCalls.baccaratBet, { body: { side, stake } });
/** POST /house/api/fish/shoot. */
export const shootFish = (fish: 'clown' | 'puffer' | 'turtle' | 'shark' | 'whale', stake: number) => houseCall(houseCalls.shoot, { body: { fish, stake } });
/** POST /house/api/pvp/state: the Lucky 9 Duel round, seats, my cards, balance. */
export const getPvpState = () => houseCall(houseCalls.pvpState, { body: {} });
/** POST /house/api/pvp/join: take a seat in the joining round (the ante is bet). */
export const joinPvp = () => houseCall(houseCalls.pvpJoin, { body: {} });
