// The vendor simulator's game page: one script for the four game types (no build step, no inline script).
(function () {
  'use strict';
  var T = {
    en: {
      badge: 'Simulated demo', badgeTitle: 'This game is played by the built-in vendor simulator, not by the real provider. Bets use real money on your wallet.',
      free: 'Free play (play money)', balance: 'Balance', stake: 'Stake', spin: 'Spin', shoot: 'Shoot', deal: 'Deal', playHand: 'Play hand',
      win: 'Win', noWin: 'No win', push: 'Tie: stake returned', bigWin: 'Big win!', lobby: 'Back to the portal', history: 'Your rounds', round: 'Round', result: 'Result',
      rtp: 'Return to player', paytable: 'Paytable (pays per line, in % of the stake)', fair: 'Provably fair: server seed hash', player: 'Player', banker: 'Banker',
      tie: 'Tie', you: 'You', opponent: 'Opponent', rake: 'Rake', pickFish: 'Pick a target', caught: 'Caught', missed: 'Missed', nothing: 'No rounds yet',
      err_GAME_TOKEN_INVALID: 'The game session has ended. Open the game again from the portal.', err_INSUFFICIENT_FUNDS: 'Not enough balance for this stake.',
      err_ACCOUNT_DISABLED: 'Your account may not play.', err_TRIAL_FORBIDDEN: 'Trial accounts may only use free play.', err_CONFLICT: 'The round could not complete; no money moved. Try again.',
      err_GAME_MAINTENANCE: 'This game is under maintenance.', err_default: 'Something went wrong. Try again.',
      err_RG_LIMIT_REACHED: 'This stake would go beyond a responsible gaming limit you set. No money moved.',
      err_RG_EXCLUDED: 'Your account is excluded from play (responsible gaming) until the exclusion ends. No money moved.',
      type_RNG: 'Slot', type_FISH: 'Fish shooter', type_LIVE: 'Live baccarat (instant rounds)', type_PVP: 'Lucky 9 duel vs simulated players',
      type_LOTT: 'Lottery (instant draw)', type_ELOTT: 'E-lottery (instant draw)', type_SPORTS: 'Sportsbook (simulated matches)',
      type_ESPORTS: 'E-sports (simulated matches)', type_COCKFIGHT: 'Sabong (simulated fights)',
      buy: 'Buy ticket', quickPick: 'Quick pick', clear: 'Clear', drawn: 'Drawn', matched: 'Matched', pickDigits: 'Pick {n} digits', pickNumbers: 'Pick {n} numbers from 1 to {m} ({k} drawn)',
      prizes: 'Prizes (paid in all, per stake)', prizeDigitsAll: 'All {n} digits in order', prizeDigitsLast: 'Last {n} digits in order', prizeNumbers: '{n} numbers matched',
      big: 'Big (11-17)', small: 'Small (4-10)', odd: 'Odd', even: 'Even', dicePays: 'Big, small, odd and even pay 2x; any triple loses', total: 'Total',
      pickRunner: 'Pick the winner', runner: 'No. {n}', racePays: 'The winner pays {x}x', order: 'Finishing order',
      home: 'Home', away: 'Away', draw: 'Draw', vs: 'vs', finalScore: 'Final score', odds: 'Odds', nextMatch: 'Next match',
      meron: 'Meron', wala: 'Wala', fightDraw: 'Draw', nextFight: 'Next fight', fightTime: 'Fight time', fightRules: 'Meron and Wala bets are returned on a draw; the draw pays 8 to 1',
      winner: 'Winner', stakeBack: 'Stake returned', decision: 'decision', lastMatch: 'Last match', lastFight: 'Last fight',
      lines_one: '{n} winning line', lines_other: '{n} winning lines', providerCode: 'Provider {code}',
      fish_clown: 'Clownfish', fish_puffer: 'Pufferfish', fish_turtle: 'Sea turtle', fish_shark: 'Shark', fish_whale: 'Golden whale',
    },
    ty: {
      badge: 'Simulated na demo', badgeTitle: 'Ang larong ito ay pinapatakbo ng built-in na vendor simulator, hindi ng totoong provider. Totoong pera sa wallet mo ang taya.',
      free: 'Libreng laro (pera sa laro)', balance: 'Balanse', stake: 'Taya', spin: 'Paikutin', shoot: 'Barilin', deal: 'Ibigay ang baraha', playHand: 'Maglaro ng kamay',
      win: 'Panalo', noWin: 'Walang panalo', push: 'Tabla: ibinalik ang taya', bigWin: 'Malaking panalo!', lobby: 'Bumalik sa portal', history: 'Mga ikot mo', round: 'Ikot blg.', result: 'Resulta',
      rtp: 'Balik sa manlalaro', paytable: 'Talaan ng bayad (bawat linya, % ng taya)', fair: 'Patas na mapapatunayan: hash ng server seed', player: 'Manlalaro', banker: 'Bangkero',
      tie: 'Tabla', you: 'Ikaw', opponent: 'Kalaban', rake: 'Kaltas ng bahay', pickFish: 'Pumili ng target', caught: 'Nahuli', missed: 'Mintis', nothing: 'Wala pang round',
      err_GAME_TOKEN_INVALID: 'Tapos na ang game session. Buksan muli ang laro mula sa portal.', err_INSUFFICIENT_FUNDS: 'Kulang ang balanse para sa tayang ito.',
      err_ACCOUNT_DISABLED: 'Hindi maaaring maglaro ang account mo.', err_TRIAL_FORBIDDEN: 'Libreng laro lang para sa trial account.', err_CONFLICT: 'Hindi natapos ang round; walang perang gumalaw. Subukan muli.',
      err_GAME_MAINTENANCE: 'Nasa maintenance ang larong ito.', err_default: 'May nangyaring mali. Subukan muli.',
      err_RG_LIMIT_REACHED: 'Lalampas ang tayang ito sa limitasyong itinakda mo para sa responsableng paglalaro. Walang perang gumalaw.',
      err_RG_EXCLUDED: 'Naka-exclude ang account mo sa paglalaro (responsableng paglalaro) hanggang matapos ang exclusion. Walang perang gumalaw.',
      type_RNG: 'Slot na laro', type_FISH: 'Pangingisda (barilin ang isda)', type_LIVE: 'Live na baccarat (mabilis na round)', type_PVP: 'Lucky 9 duel laban sa simulated na manlalaro',
      type_LOTT: 'Lotto (agarang bola)', type_ELOTT: 'E-lotto (agarang bola)', type_SPORTS: 'Sportsbook (simulated na laban)',
      type_ESPORTS: 'E-sports (simulated na laban)', type_COCKFIGHT: 'Sabong (simulated na laban)',
      buy: 'Bumili ng tiket', quickPick: 'Mabilisang pili', clear: 'Burahin', drawn: 'Lumabas', matched: 'Tumama', pickDigits: 'Pumili ng {n} na numero (0-9)', pickNumbers: 'Pumili ng {n} numero mula 1 hanggang {m} ({k} ang bubunutin)',
      prizes: 'Mga premyo (kabuuang bayad bawat taya)', prizeDigitsAll: 'Lahat ng {n} numero, sunod-sunod', prizeDigitsLast: 'Huling {n} numero, sunod-sunod', prizeNumbers: '{n} numerong tumama',
      big: 'Malaki (11-17)', small: 'Maliit (4-10)', odd: 'Gansal', even: 'Pares', dicePays: 'Malaki, maliit, gansal at pares: 2x ang bayad; talo kapag tatlong magkapareho', total: 'Kabuuan',
      pickRunner: 'Piliin ang mananalo', runner: 'Blg. {n}', racePays: '{x}x ang bayad sa mananalo', order: 'Pagkakasunod sa finish',
      home: 'Punong-abala', away: 'Bisita', draw: 'Tabla', vs: 'laban sa', finalScore: 'Huling iskor', odds: 'Odds', nextMatch: 'Susunod na laban',
      meron: 'Meron', wala: 'Wala', fightDraw: 'Tabla', nextFight: 'Susunod na laban', fightTime: 'Tagal ng laban', fightRules: 'Ibinabalik ang taya sa Meron at Wala kapag tabla; 8 sa 1 ang bayad sa tabla',
      winner: 'Nanalo', stakeBack: 'Ibinalik ang taya', decision: 'desisyon', lastMatch: 'Nakaraang laban', lastFight: 'Nakaraang laban',
      lines_one: '{n} linyang panalo', lines_other: '{n} linyang panalo', providerCode: 'Tagapagbigay {code}',
      fish_clown: 'Isdang payaso', fish_puffer: 'Butete', fish_turtle: 'Pawikan', fish_shark: 'Pating', fish_whale: 'Gintong balyena',
    },
  };
  var q = new URLSearchParams(location.search);
  var lang = q.get('lang') === 'ty' ? 'ty' : 'en';
  var t = function (k, vars) {
    var s = T[lang][k] || T.en[k] || k;
    for (var v in vars || {}) s = s.split('{' + v + '}').join(String(vars[v]));
    return s;
  };
  var x = function (pays) { return (pays / 100).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 }); };
  var root = document.getElementById('sim');
  // The back link: the portal's lobbyUrl from the launch (checked by the server), else its configured URL.
  var lobby = root.getAttribute('data-lobby') || '';
  var state = null;
  var stake = 0;

  function el(tag, attrs, kids) {
    var e = document.createElement(tag);
    for (var k in attrs || {}) {
      if (k === 'text') e.textContent = attrs[k];
      else if (k === 'html') e.innerHTML = attrs[k];
      else if (k.slice(0, 2) === 'on') e.addEventListener(k.slice(2), attrs[k]);
      else e.setAttribute(k, attrs[k]);
    }
    (kids || []).forEach(function (c) { if (c) e.appendChild(c); });
    return e;
  }
  // Amounts are minor units of the session's currency: its sign and decimals from Intl (₱1,000.00; ₫1,000).
  var formats = {};
  function money(c) {
    var cur = (state && state.currency) || 'PHP';
    if (!formats[cur]) {
      try { formats[cur] = new Intl.NumberFormat('en', { style: 'currency', currency: cur }); } catch (e) { formats[cur] = new Intl.NumberFormat('en', { style: 'currency', currency: 'PHP' }); }
    }
    var f = formats[cur];
    var digits = cur === 'IDR' ? 2 : f.resolvedOptions().maximumFractionDigits;
    return f.format(c / Math.pow(10, digits));
  }
  function api(path, body) {
    var h = { 'content-type': 'application/json' };
    if (state) h['x-sim-session'] = state.session;
    return fetch('/api' + path, { method: 'POST', headers: h, body: JSON.stringify(body || {}) }).then(function (r) {
      return r.json().then(function (j) {
        if (!j.success) { var e = new Error(j.message); e.code = j.code; throw e; }
        return j.value;
      });
    });
  }
  // Art drawn from the game's seed: shapes and hues as SVG data URIs.
  function svg(shape, hue, label) {
    var c1 = 'hsl(' + hue + ',75%,55%)', c2 = 'hsl(' + ((hue + 40) % 360) + ',80%,30%)';
    var body = {
      wild: '<rect x="10" y="10" width="80" height="80" rx="16" fill="' + c2 + '"/><text x="50" y="64" font-size="40" text-anchor="middle" fill="#fff" font-family="Verdana">W</text>',
      star: '<polygon points="50,8 61,38 93,38 67,57 77,90 50,70 23,90 33,57 7,38 39,38" fill="' + c1 + '" stroke="' + c2 + '" stroke-width="4"/>',
      diamond: '<polygon points="50,6 92,50 50,94 8,50" fill="' + c1 + '" stroke="' + c2 + '" stroke-width="4"/>',
      circle: '<circle cx="50" cy="50" r="40" fill="' + c1 + '" stroke="' + c2 + '" stroke-width="6"/>',
      heart: '<path d="M50 88 L12 48 A20 20 0 0 1 50 22 A20 20 0 0 1 88 48 Z" fill="' + c1 + '" stroke="' + c2 + '" stroke-width="4"/>',
      bell: '<path d="M50 10 C25 10 25 50 15 75 L85 75 C75 50 75 10 50 10 Z" fill="' + c1 + '" stroke="' + c2 + '" stroke-width="4"/><circle cx="50" cy="84" r="8" fill="' + c2 + '"/>',
      crown: '<polygon points="10,80 15,30 35,55 50,20 65,55 85,30 90,80" fill="' + c1 + '" stroke="' + c2 + '" stroke-width="4"/>',
      bar: '<rect x="8" y="32" width="84" height="36" rx="6" fill="' + c1 + '" stroke="' + c2 + '" stroke-width="4"/><text x="50" y="60" font-size="22" text-anchor="middle" fill="' + c2 + '" font-family="Verdana">BAR</text>',
      gem: '<polygon points="25,15 75,15 92,40 50,90 8,40" fill="' + c1 + '" stroke="' + c2 + '" stroke-width="4"/>',
      moon: '<path d="M65 10 A40 40 0 1 0 90 70 A32 32 0 1 1 65 10 Z" fill="' + c1 + '" stroke="' + c2 + '" stroke-width="4"/>',
      leaf: '<path d="M15 85 C15 30 50 10 88 12 C88 50 70 85 15 85 Z" fill="' + c1 + '" stroke="' + c2 + '" stroke-width="4"/>',
      fish: '<ellipse cx="45" cy="50" rx="34" ry="22" fill="' + c1 + '" stroke="' + c2 + '" stroke-width="4"/><polygon points="75,50 95,30 95,70" fill="' + c2 + '"/><circle cx="28" cy="45" r="5" fill="#fff"/>',
    }[shape] || '';
    var s = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">' + body + (label ? '<text x="50" y="98" font-size="11" text-anchor="middle" fill="#fff" font-family="Verdana">' + label + '</text>' : '') + '</svg>';
    // Art only: its label (a symbol letter, a multiple) or nothing, never the shape's English name.
    return el('img', { src: 'data:image/svg+xml;charset=utf-8,' + encodeURIComponent(s), alt: label || '', class: 'sim-art' });
  }
  function card(c) {
    var ranks = ['A', '2', '3', '4', '5', '6', '7', '8', '9', '10', 'J', 'Q', 'K'], suits = ['\u2660', '\u2665', '\u2666', '\u2663'];
    var s = Math.floor(c / 13) % 4;
    return el('span', { class: 'sim-card' + (s === 1 || s === 2 ? ' sim-card--red' : ''), text: ranks[c % 13] + suits[s] });
  }

  var ui = {};
  function showError(err) {
    ui.msg.className = 'sim-msg sim-msg--error';
    ui.msg.setAttribute('data-testid', 'sim-error');
    ui.msg.textContent = t('err_' + (err && err.code)) !== 'err_' + (err && err.code) ? t('err_' + err.code) : t('err_default');
  }
  function setBalance(b) {
    state.balance = b;
    ui.balance.textContent = money(b);
  }
  function renderHistory() {
    ui.history.innerHTML = '';
    if (!state.history.length) { ui.history.appendChild(el('tr', {}, [el('td', { colspan: '4', text: t('nothing') })])); return; }
    state.history.forEach(function (r) {
      ui.history.appendChild(el('tr', { 'data-testid': 'sim-history-row', class: r.bigWin ? 'sim-big' : '' }, [
        el('td', { text: r.roundId }), el('td', { text: money(r.stake) }), el('td', { text: money(r.win) }), el('td', { text: summaryOf(r.detail) }),
      ]));
    });
  }
  // A round's line in the history, worded here from the server's data (it sends no English).
  function summaryOf(d) {
    if (!d) return '';
    if (d.kind === 'slot') return d.lines ? t(d.lines === 1 ? 'lines_one' : 'lines_other', { n: d.lines }) : '-';
    if (d.kind === 'fish') return t('fish_' + d.fish) + ' ' + (d.caught ? 'x' + d.multiple : '-');
    if (d.kind === 'live') return t(d.side) + ' / ' + t(d.winner) + ' ' + d.player + ':' + d.banker;
    if (d.kind === 'ticket') return d.pick.map(function (p) { return typeof p === 'string' ? t(p) : String(p); }).join(' ') + ' / ' + d.drawn.join(' ');
    if (d.kind === 'match') {
      var score = d.score === 'decision' ? t('decision') : d.score;
      return /^\d+-\d+$/.test(score) ? d.home + ' ' + score + ' ' + d.away : d.home + ' ' + t('vs') + ' ' + d.away + ' ' + score;
    }
    if (d.kind === 'pvp') return d.you + ' ' + t('vs') + ' ' + d.others.join(', ');
    return '';
  }
  function busy(on) { ui.action.forEach(function (b) { b.disabled = on; }); }
  function play(extra) {
    busy(true);
    ui.msg.className = 'sim-msg';
    ui.msg.removeAttribute('data-testid');
    ui.msg.textContent = '';
    var body = Object.assign({ stake: stake }, extra || {});
    return api('/play', body).then(function (r) {
      setBalance(r.balance);
      state.history.unshift(r.round);
      state.history.length = Math.min(state.history.length, 20);
      state.fair.nonce = r.nonce;
      if (r.fixture) { state.fixture = r.fixture; renderFixture(); }
      renderHistory();
      showOutcome(r);
      ui.msg.className = 'sim-msg' + (r.round.win > 0 ? ' sim-msg--win' : '');
      ui.msg.setAttribute('data-testid', 'sim-result');
      // A live bet on Player or Banker when the hand ties is a push: the stake comes back, no win.
      var push = r.round.detail && r.round.detail.kind === 'live' && r.round.detail.winner === 'tie' && r.round.detail.side !== 'tie' && r.round.win === r.round.stake;
      ui.msg.textContent = push ? t('push') + ' ' + money(r.round.win)
        : r.round.win > 0 ? (r.round.bigWin ? t('bigWin') + ' ' : '') + t('win') + ' ' + money(r.round.win) : t('noWin');
    }).catch(showError).then(function () { busy(false); });
  }
  function balls(nums, hits, testid) {
    return el('div', { class: 'sim-balls', 'data-testid': testid }, nums.map(function (n) {
      return el('span', { class: 'sim-ball' + (hits && hits.indexOf(n) >= 0 ? ' sim-ball--hit' : ''), text: String(n) });
    }));
  }
  function showLottery(o) {
    var g = state.lottery;
    ui.stage.textContent = '';
    if (g.kind === 'dice') {
      var total = o.drawn[0] + o.drawn[1] + o.drawn[2];
      ui.stage.appendChild(el('p', { class: 'sim-line', text: t('drawn') }));
      ui.stage.appendChild(el('div', { class: 'sim-balls', 'data-testid': 'sim-drawn' }, o.drawn.map(function (d) { return el('span', { class: 'sim-die', text: ['\u2680', '\u2681', '\u2682', '\u2683', '\u2684', '\u2685'][d - 1] }); })));
      ui.stage.appendChild(el('p', { class: 'sim-line', text: t('total') + ' ' + total }));
    } else if (g.kind === 'race') {
      ui.stage.appendChild(el('p', { class: 'sim-line', text: t('order') }));
      ui.stage.appendChild(balls(o.drawn, o.pick, 'sim-drawn'));
    } else {
      ui.stage.appendChild(el('p', { class: 'sim-line', text: t('drawn') }));
      ui.stage.appendChild(balls(o.drawn, g.kind === 'lotto' ? o.pick : null, 'sim-drawn'));
      ui.stage.appendChild(el('p', { class: 'sim-line', text: t('matched') + ': ' + o.matched }));
    }
  }
  function showMatch(o) {
    var f = o.fixture, fight = state.type === 'COCKFIGHT';
    var score = o.score === 'decision' ? t('decision') : o.score;
    var winner = o.result === 'draw' ? t(fight ? 'fightDraw' : 'draw')
      : t('winner') + ': ' + (fight ? t(o.result === 'home' ? 'meron' : 'wala') + ' \u00B7 ' : '') + f[o.result];
    // A score between the names where there is one (2-1, 102-95, 2-0); otherwise after the winner (KO 5, the fight's time).
    var text = /^\d+-\d+$/.test(score) ? f.home + ' ' + score + ' ' + f.away + ' \u2014 ' + winner
      : f.home + ' ' + t('vs') + ' ' + f.away + ' \u2014 ' + winner + ' (' + (fight ? t('fightTime') + ' ' : '') + score + ')';
    ui.result.textContent = '';
    ui.result.appendChild(el('p', { class: 'sim-line sim-last', 'data-testid': 'sim-match-result' }, [el('span', { class: 'sim-last__label', text: t(fight ? 'lastFight' : 'lastMatch') + ': ' }), el('span', { text: text })]));
  }
  function showOutcome(r) {
    var o = r.outcome;
    if (state.lottery) showLottery(o);
    else if (state.fixture) showMatch(o);
    else if (state.type === 'RNG') drawGrid(o.grid, o.lines);
    else if (state.type === 'FISH') { ui.stage.textContent = ''; ui.stage.appendChild(el('p', { class: 'sim-line', text: (o.caught ? t('caught') + ' x' + o.multiple : t('missed')) })); }
    else if (state.type === 'LIVE') {
      ui.stage.textContent = '';
      ui.stage.appendChild(el('div', { class: 'sim-hands' }, [
        el('div', { class: 'sim-hand' + (o.winner === 'player' ? ' sim-hand--win' : '') }, [el('h3', { text: t('player') + ' ' + o.playerTotal })].concat(o.player.map(card))),
        el('div', { class: 'sim-hand' + (o.winner === 'banker' ? ' sim-hand--win' : '') }, [el('h3', { text: t('banker') + ' ' + o.bankerTotal })].concat(o.banker.map(card))),
      ]));
    } else {
      ui.stage.textContent = '';
      ui.stage.appendChild(el('div', { class: 'sim-hands' }, o.hands.map(function (h, i) {
        return el('div', { class: 'sim-hand' + (h.win > 0 ? ' sim-hand--win' : '') }, [el('h3', { text: (i === 0 ? t('you') : t('opponent') + ' ' + i) + ' ' + h.value })].concat(h.cards.map(card)));
      })));
    }
  }
  function drawGrid(grid, lines) {
    ui.stage.textContent = '';
    var g = el('div', { class: 'sim-grid', 'data-testid': 'sim-grid' });
    for (var row = 0; row < 3; row++) for (var reel = 0; reel < 5; reel++) {
      var s = state.slot.symbols[grid[reel][row]];
      g.appendChild(el('div', { class: 'sim-cell' }, [svg(s.shape, s.hue, s.label)]));
    }
    ui.stage.appendChild(g);
    if (lines && lines.length) ui.stage.appendChild(el('p', { class: 'sim-line', text: lines.map(function (l) { return '#' + (l.line + 1) + ': ' + l.pay + '%'; }).join('  ') }));
  }

  function render() {
    document.title = state.name + ' \u2013 ' + t('badge');
    root.textContent = '';
    root.style.setProperty('--hue', String(state.hue));
    ui.balance = el('strong', { 'data-testid': 'sim-balance' });
    ui.msg = el('p', { class: 'sim-msg', 'aria-live': 'polite' });
    ui.stage = el('div', { class: 'sim-stage' });
    ui.history = el('tbody');
    ui.action = [];
    var stakeSel = el('select', { 'data-testid': 'sim-stake', 'aria-label': t('stake'), onchange: function (e) { stake = Number(e.target.value); } },
      state.stakes.map(function (s) { return el('option', { value: String(s), text: money(s) }); }));
    stake = state.stakes[0];
    var controls = el('div', { class: 'sim-controls' }, [el('label', { text: t('stake') + ' ' }, [stakeSel])]);
    function action(label, testid, extra) {
      var b = el('button', { type: 'button', class: 'sim-btn', 'data-testid': testid, text: label, onclick: function () { play(extra); } });
      ui.action.push(b);
      controls.appendChild(b);
    }
    if (state.type === 'RNG') action(t('spin'), 'sim-play');
    else if (state.type === 'FISH') state.fish.forEach(function (f, i) {
      var b = el('button', { type: 'button', class: 'sim-btn sim-fish', 'data-testid': 'sim-fish-' + f.id, onclick: function () { play({ fish: f.id }); } },
        [svg('fish', (state.hue + i * 57) % 360, 'x' + f.multiple)]);
      ui.action.push(b);
      controls.appendChild(b);
    });
    else if (state.type === 'LIVE') state.sides.forEach(function (s) { action(t(s), 'sim-side-' + s, { side: s }); });
    else if (state.lottery) { ui.ticket = el('div', { class: 'sim-ticket' }); ui.stage.style.minHeight = '60px'; lotteryControls(controls, action); }
    else if (state.fixture) { ui.fixture = el('div', { class: 'sim-fixture', 'data-testid': 'sim-fixture' }); ui.result = el('div', {}); }
    else action(t('playHand'), 'sim-play');
    var info = [];
    if (state.rtp !== null) info.push(el('p', { 'data-testid': 'sim-rtp', text: t('rtp') + ': ' + (state.rtp * 100).toFixed(2) + '%' }));
    if (state.rakePercent !== null) info.push(el('p', { text: t('rake') + ': ' + state.rakePercent + '%' }));
    info.push(el('p', { class: 'sim-fair', text: t('fair') + ': ' + state.fair.serverSeedHash.slice(0, 24) + '\u2026' }));
    var pay = null;
    if (state.slot) {
      pay = el('table', { class: 'sim-pays' }, [el('caption', { text: t('paytable') })].concat(state.slot.symbols.map(function (s, i) {
        return el('tr', {}, [el('td', {}, [svg(s.shape, s.hue, s.label)])].concat(state.slot.pays[i].map(function (p, k) { return el('td', { text: (k + 3) + 'x: ' + p + '%' }); })));
      })));
    }
    root.appendChild(el('header', { class: 'sim-head' }, [
      svg(state.type === 'FISH' ? 'fish' : state.slot ? state.slot.symbols[1].shape : 'crown', state.hue),
      el('div', {}, [el('h1', { 'data-testid': 'sim-name', text: state.name }), el('p', { class: 'sim-sub', 'data-testid': 'sim-sub', text: (vendorName || t('providerCode', { code: state.vendor })) + ' \u00B7 ' + t('type_' + state.type) })]),
      el('span', { class: 'sim-badge', 'data-testid': 'sim-badge', title: t('badgeTitle'), text: t('badge') }),
      state.free ? el('span', { class: 'sim-free', 'data-testid': 'sim-free', text: t('free') }) : null,
      el('p', { class: 'sim-bal' }, [el('span', { text: t('balance') + ' ' }), ui.balance]),
      lobby ? el('a', { class: 'sim-lobby', 'data-testid': 'sim-lobby', href: lobby, text: t('lobby') }) : null,
    ]));
    if (state.lottery) info.push(lotteryRules(state.lottery));
    if (state.fixture && state.type === 'COCKFIGHT') info.push(el('p', { text: t('fightRules') }));
    root.appendChild(el('section', { class: 'sim-table' }, [ui.stage, ui.result || null, ui.fixture || null, ui.ticket || null, controls, ui.msg]));
    root.appendChild(el('section', { class: 'sim-info' }, info.concat([pay])));
    root.appendChild(el('section', { class: 'sim-hist' }, [el('h2', { text: t('history') }), el('table', {}, [
      el('thead', {}, [el('tr', {}, [el('th', { text: t('round') }), el('th', { text: t('stake') }), el('th', { text: t('win') }), el('th', { text: t('result') })])]), ui.history,
    ])]));
    setBalance(state.balance);
    renderHistory();
    if (state.type === 'RNG') drawGrid([[1, 2, 3], [2, 3, 4], [3, 4, 5], [4, 5, 1], [5, 1, 2]].map(function (c) { return c.map(function (i) { return i % state.slot.symbols.length; }); }), []);
    if (state.type === 'FISH') ui.stage.appendChild(el('p', { class: 'sim-line', text: t('pickFish') }));
    if (state.fixture) { ui.stage.style.minHeight = '0'; renderFixture(); }
  }

  // Lotteries: the ticket (digits in order, lotto numbers, a dice side or a runner), the prize table.
  function lotteryControls(controls, action) {
    var g = state.lottery;
    if (g.kind === 'dice') { state.diceSides.forEach(function (s) { action(t(s), 'sim-side-' + s, { side: s }); }); return; }
    if (g.kind === 'race') {
      ui.ticket.appendChild(el('p', { class: 'sim-line', text: t('pickRunner') }));
      for (var r = 1; r <= g.runners; r++) action(t('runner', { n: r }), 'sim-runner-' + r, { pick: [r] });
      return;
    }
    var pick = [];
    var board = el('div', { class: 'sim-board', 'data-testid': 'sim-board' });
    var buy = el('button', { type: 'button', class: 'sim-btn', 'data-testid': 'sim-play', text: t('buy'), onclick: function () { play({ pick: pick.slice() }); } });
    var sync = function () {
      if (g.kind === 'digits') return;
      Array.prototype.forEach.call(board.children, function (b) { b.setAttribute('aria-pressed', pick.indexOf(Number(b.value)) >= 0 ? 'true' : 'false'); });
      buy.disabled = pick.length !== g.pick;
    };
    if (g.kind === 'digits') {
      ui.ticket.appendChild(el('p', { class: 'sim-line', text: t('pickDigits', { n: g.digits }) }));
      var sels = [];
      for (var i = 0; i < g.digits; i++) {
        var sel = el('select', { class: 'sim-digit', 'data-testid': 'sim-digit-' + i, 'aria-label': String(i + 1), onchange: function () { pick = sels.map(function (x) { return Number(x.value); }); } });
        for (var d = 0; d <= 9; d++) sel.appendChild(el('option', { value: String(d), text: String(d) }));
        sels.push(sel);
        board.appendChild(sel);
      }
      pick = sels.map(function () { return 0; });
      controls.appendChild(el('button', { type: 'button', class: 'sim-btn sim-btn--ghost', 'data-testid': 'sim-quick-pick', text: t('quickPick'), onclick: function () {
        sels.forEach(function (x) { x.value = String(Math.floor(Math.random() * 10)); });
        pick = sels.map(function (x) { return Number(x.value); });
      } }));
    } else {
      ui.ticket.appendChild(el('p', { class: 'sim-line', text: t('pickNumbers', { n: g.pick, m: g.of, k: g.drawn }) }));
      for (var n = 1; n <= g.of; n++) {
        board.appendChild(el('button', { type: 'button', class: 'sim-num', value: String(n), 'data-testid': 'sim-num-' + n, text: String(n), onclick: function (e) {
          var v = Number(e.currentTarget.value), at = pick.indexOf(v);
          if (at >= 0) pick.splice(at, 1); else if (pick.length < g.pick) pick.push(v);
          sync();
        } }));
      }
      controls.appendChild(el('button', { type: 'button', class: 'sim-btn sim-btn--ghost', 'data-testid': 'sim-quick-pick', text: t('quickPick'), onclick: function () {
        pick = [];
        while (pick.length < g.pick) { var v = 1 + Math.floor(Math.random() * g.of); if (pick.indexOf(v) < 0) pick.push(v); }
        sync();
      } }));
      controls.appendChild(el('button', { type: 'button', class: 'sim-btn sim-btn--ghost', text: t('clear'), onclick: function () { pick = []; sync(); } }));
    }
    ui.ticket.appendChild(board);
    ui.action.push(buy);
    controls.appendChild(buy);
    sync();
  }
  function lotteryRules(g) {
    if (g.kind === 'dice') return el('p', { text: t('dicePays') });
    if (g.kind === 'race') return el('p', { text: t('racePays', { x: x(g.pays) }) });
    return el('table', { class: 'sim-pays', 'data-testid': 'sim-prizes' }, [el('caption', { text: t('prizes') })].concat(g.prizes.map(function (p, i) {
      var label = g.kind === 'digits' ? t(i === 0 ? 'prizeDigitsAll' : 'prizeDigitsLast', { n: p.match }) : t('prizeNumbers', { n: p.match });
      return el('tr', {}, [el('td', { text: label }), el('td', { text: x(p.pays) + 'x' })]);
    })));
  }

  // Matches and fights: the next fixture and its odds, one button per side.
  function renderFixture() {
    var f = state.fixture, fight = state.type === 'COCKFIGHT';
    ui.fixture.textContent = '';
    ui.fixture.appendChild(el('p', { class: 'sim-line', text: t(fight ? 'nextFight' : 'nextMatch') }));
    ui.fixture.appendChild(el('h2', { class: 'sim-teams', 'data-testid': 'sim-teams', text: f.home + ' ' + t('vs') + ' ' + f.away }));
    var row = el('div', { class: 'sim-odds' });
    ['home', 'draw', 'away'].forEach(function (side) {
      if (f.odds[side] === null) return;
      var label = fight ? t(side === 'home' ? 'meron' : side === 'away' ? 'wala' : 'fightDraw') : side === 'draw' ? t('draw') : f[side];
      var b = el('button', { type: 'button', class: 'sim-btn sim-odd' + (fight ? ' sim-odd--' + side : ''), 'data-testid': 'sim-side-' + side, onclick: function () { play({ side: side }); } },
        [el('span', { text: label }), el('strong', { text: x(f.odds[side]) })]);
      row.appendChild(b);
    });
    ui.fixture.appendChild(row);
    ui.action = ui.action.filter(function (b) { return b.isConnected && !b.classList.contains('sim-odd'); }).concat(Array.prototype.slice.call(row.children));
  }

  // A simulated vendor's display name, as the portal's launch names it (a real vendor knows its own).
  var vendorName = q.get('vendorName') || '';
  var launch = { game: q.get('game') || '', vendor: q.get('vendor') || '', operator: q.get('operator') || '', type: q.get('type') || '', name: q.get('name') || q.get('game') || '' };
  // The game's minimum bet from the operator's catalogue: the page offers no stake below it.
  var minBet = parseInt(q.get('minBet') || '', 10);
  if (minBet > 0) launch.minBet = minBet;
  if (/^[A-Z]{3}$/.test(q.get('currency') || '')) launch.currency = q.get('currency');
  // A launch code opens the game; without one (a reload, the back button, a bookmark) the page takes up
  // this browser's session of the game (an HttpOnly cookie the launch set), or says it has ended.
  var opening = q.get('mode') === 'free' ? api('/free', launch)
    : q.get('token') ? api('/open', Object.assign({ token: q.get('token') }, launch))
    : api('/resume', { game: launch.game, vendor: launch.vendor });
  // The launch code is single use: drop it from the address bar once sent.
  if (q.has('token')) { q.delete('token'); history.replaceState(null, '', location.pathname + '?' + q.toString()); }
  opening.then(function (s) { state = s; render(); }).catch(function (err) {
    root.textContent = '';
    ui.msg = el('p', { class: 'sim-msg sim-msg--error' });
    root.appendChild(el('span', { class: 'sim-badge', 'data-testid': 'sim-badge', text: t('badge') }));
    root.appendChild(ui.msg);
    showError(err);
    if (lobby) root.appendChild(el('a', { class: 'sim-lobby', 'data-testid': 'sim-lobby', href: lobby, text: t('lobby') }));
  });
})();
