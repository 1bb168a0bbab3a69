/**
 * Texts that stay the same in Tagalog (TY) as in English, reviewed one by one. locales.test.ts
 * fails on any other TY text equal to its EN text: an untranslated string. Keep this list short;
 * every entry says why it is not translated.
 */
export const SAME_IN_TY: ReadonlyMap<string, string> = new Map([
  ['{{used}} / {{quota}}', 'numbers only'],
  ['{{team}} / {{direct}}', 'numbers only'],
  ['5,000+', 'a figure'],
  ['24/7', 'a figure, read the same in Tagalog'],
  ['3', 'a figure'],
  ['JILI', 'brand name of a game provider'],
  ['GCash', 'brand name of an e-wallet'],
  ['Maya', 'brand name of an e-wallet'],
  ['MoMo', 'brand name of a Vietnamese e-wallet'],
  ['ZaloPay', 'brand name of a Vietnamese e-wallet'],
  ['VietQR', 'brand name of the Vietnamese bank QR payment standard'],
  ['Android', 'brand name of a platform'],
  ['iOS', 'brand name of a platform'],
  ['LINE ID', 'LINE is a brand; "ID" is how Filipino users name it'],
  ['WhatsApp', 'brand name'],
  ['Facebook', 'brand name'],
  ['Messenger', 'brand name (Facebook Messenger, a customer-service channel)'],
  ['WeChat', 'brand name'],
  ['Poker', 'game name, used as is in the Philippines (no Tagalog word)'],
  ['Bingo', 'game name, used as is in the Philippines'],
  ['E-Sports', 'category name used as is by Philippine portals'],
  ['ID', 'the usual word in Tagalog for an identifier'],
  ['P', 'baccarat scoreboard letter (Player), international notation'],
  ['B', 'baccarat scoreboard letter (Banker), international notation'],
  ['T', 'baccarat scoreboard letter (Tie), international notation'],
]);
