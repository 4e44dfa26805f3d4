'use strict';
/* The step-through page's script (see sim/trace/trace_html.h).  It lays out what the data says
 * (D, written by sim/trace/trace_html.c) and navigates; it computes nothing about the protocol.
 * Made into a C string at build time (the Makefile's build/gen/trace_html_page_js.h). */
const D = JSON.parse(document.getElementById('data').textContent);
const N = D.steps.length, NC = D.cores.length, NL = D.lines.length;
const COL_DIR = NC, COL_MEM = NC + 1, COL_QUEUE = NC + 2;
const PHASES = D.phases; // a thread's phase between the harness's marks, in the run's words
const STABLE = new Set(D.stable);
const SVGNS = 'http://www.w3.org/2000/svg';
/* Okabe-Ito colours, each state also written in its cell: colour is never the only cue. */
const FILL = { M: '#D55E00', O: '#CC79A7', E: '#009E73', S: '#56B4E9', F: '#0072B2', I: '#FFFFFF' };
const INK = { M: '#fff', O: '#000', E: '#fff', S: '#000', F: '#fff', I: '#555' };
const TRANSIENT = '#E69F00', SB_FILL = '#F0E442', QUEUE_FILL = '#BFE3F7';
function esc(s) { return String(s).replace(/[&<>"]/g, c => ({'&':'&amp;','<':'&lt;','>':'&gt;','"':'&quot;'}[c])); }
function stateFill(st) { return STABLE.has(st) ? (FILL[st] || '#999') : TRANSIENT; }
function stateInk(st) { return STABLE.has(st) ? (INK[st] || '#000') : '#000'; }

/* what each column shows after each step: snap[k][line][col] = [state, holders, values] */
const snap = [];
let cur = D.lines.map(() => { const r = []; for (let c = 0; c <= COL_QUEUE; c++) r.push([c < NC ? 'I' : c === COL_DIR ? D.homeStart : '', c === COL_DIR ? D.homeWords : '', null]); return r; });
snap.push(cur);
for (const s of D.steps) {
  cur = cur.map(r => r.slice());
  for (const [l, c, st, h, v] of s.ch) if (l >= 0) cur[l][c] = [st, h, v];
  snap.push(cur);
}
let step = 0, playing = null, animT = null;
const lineSel = document.getElementById('line');
D.lines.forEach((l, i) => { const o = document.createElement('option'); o.value = i; o.textContent = l.name; lineSel.appendChild(o); });
if (D.lockLine >= 0) lineSel.value = D.lockLine;
document.getElementById('title').textContent = D.title;
document.title = 'qsim: ' + D.title;
function cellId(l, c) { return 'cell-' + D.lines[l].name + '-' + (c < NC ? 'c' + D.cores[c] : 'dir'); }
function cycleAt(k) { return k > 0 ? D.steps[k - 1].c : 0; }
function fmtVals(v) { return v == null ? '' : v.map(x => (x >= 65536 ? '0x' + x.toString(16) : String(x))).join(', '); }

/* ---------------- the machine, drawn ---------------- */
const svg = document.getElementById('machine'), tableBox = document.getElementById('table');
const W = 840, PAD = 10, GAP = 12;
const CW = Math.min(400, (W - 2 * PAD - (NC - 1) * GAP) / NC);
const LINE_H = 20, CORE_Y = 8, CORE_H = 178, CACHE_Y = CORE_Y + CORE_H + 8;
const CACHE_H = 24 + NL * LINE_H, BUS_Y = CACHE_Y + CACHE_H + 34, BUS_H = 26;
const HOME_Y = BUS_Y + BUS_H + 34, HOME_H = 30 + NL * 2 * LINE_H, H = HOME_Y + HOME_H + 8;
const HOME_X = PAD, HOME_W = (W - 2 * PAD) * 0.62, MEM_X = HOME_X + HOME_W + GAP, MEM_W = W - PAD - MEM_X;
svg.setAttribute('viewBox', '0 0 ' + W + ' ' + H);
svg.setAttribute('width', W); svg.setAttribute('height', H);
function coreX(c) { return PAD + c * (CW + GAP); }
function el(parent, tag, attrs, text) {
  const e = document.createElementNS(SVGNS, tag);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  if (text != null) e.textContent = text;
  parent.appendChild(e);
  return e;
}
function fit(s, chars) { s = String(s); return s.length > chars ? s.slice(0, chars - 1) + '\u2026' : s; }
const CH = 6.6; /* px per character of the 11px monospace */
function stateCell(g, x, y, w, st, id, changed) {
  const r = el(g, 'rect', { x, y, width: w, height: LINE_H - 4, rx: 3, fill: stateFill(st), stroke: changed ? '#000' : '#666',
                           'stroke-width': changed ? 2.5 : 1, id, 'class': 'state' });
  if (!STABLE.has(st)) el(g, 'rect', { x, y, width: w, height: LINE_H - 4, rx: 3, fill: 'url(#hatch)', 'pointer-events': 'none' });
  el(g, 'text', { x: x + w / 2, y: y + LINE_H - 8, 'text-anchor': 'middle', fill: stateInk(st), 'font-weight': 700 }, fit(st, Math.floor(w / CH)));
  return r;
}
function opsAt(col, k) {
  return D.ops.filter(o => o[0] === col && o[5] <= k && (o[7] < 0 || o[7] >= k));
}
/* a script's access in progress at step k ({t: '#2 1:st x=5', core}), or null */
function accessAt(k) { const s = k > 0 ? D.steps[k - 1] : null; return s && s.a != null ? D.accesses[s.a] : null; }
function drawCore(g, c, k, s) {
  const x = coreX(c), run = s ? s.run : D.start, [pc, cyc] = run[c], ph = s ? s.ph[c] : 0;
  el(g, 'rect', { x, y: CORE_Y, width: CW, height: CORE_H, rx: 6, fill: '#f7f7f7', stroke: '#444' });
  el(g, 'text', { x: x + 8, y: CORE_Y + 16, 'font-weight': 700, 'font-size': 13, 'font-family': 'system-ui, sans-serif' }, 'core ' + D.cores[c]);
  el(g, 'text', { x: x + CW - 8, y: CORE_Y + 16, 'text-anchor': 'end', 'font-family': 'system-ui, sans-serif',
                  fill: ph === 2 ? '#D55E00' : ph === 1 ? '#0072B2' : '#555', 'font-weight': ph ? 700 : 400 }, PHASES[ph]);
  const nchars = Math.floor((CW - 16) / CH);
  const ins = pc >= 0 ? D.insns[pc] : null;
  if (D.accesses.length) { /* a script: no program, the core does its access (or waits) */
    const acc = accessAt(k), mine = acc && acc.core === D.cores[c];
    el(g, 'text', { x: x + 8, y: CORE_Y + 32, id: 'access-c' + D.cores[c], 'font-weight': mine ? 700 : 400, fill: mine ? '#000' : '#777' },
       fit(mine ? 'doing ' + acc.t : 'idle', nchars));
  } else
    el(g, 'text', { x: x + 8, y: CORE_Y + 32 }, fit(ins ? 'next: ' + ins[1] : 'halted', nchars));
  const ops = opsAt(c, k);
  const loads = ops.filter(o => o[1] === 'l'), sb = ops.filter(o => o[1] === 's');
  let y = CORE_Y + 44;
  el(g, 'text', { x: x + 8, y: y + 9, 'font-family': 'system-ui, sans-serif', fill: '#333' }, 'loads in flight');
  const lb = el(g, 'g', { id: 'loads-c' + D.cores[c], 'data-n': loads.length });
  y += 13;
  for (const o of loads.slice(-4)) {
    const done = o[7] === k ? o[8] : '', performed = o[6] >= 0 && o[6] <= k;
    const what = done === 'x' ? 'squashed' : done === 'r' ? 'retired' : performed ? '= ' + o[4] : 'issued';
    el(lb, 'rect', { x: x + 6, y, width: CW - 12, height: 15, rx: 2, fill: done === 'x' ? '#fde0cf' : performed ? '#dbeefa' : '#fff', stroke: '#999' });
    const t = el(lb, 'text', { x: x + 10, y: y + 11, fill: done === 'x' ? '#a33' : '#000', 'text-decoration': done === 'x' ? 'line-through' : 'none' },
                 fit('ld ' + o[3] + ' ' + what, nchars - 1));
    t.appendChild(document.createElementNS(SVGNS, 'title')).textContent = D.insns[o[2]] ? D.insns[o[2]].join(': ') : '';
    y += 17;
  }
  if (loads.length > 4) el(lb, 'text', { x: x + CW - 10, y: CORE_Y + 53, 'text-anchor': 'end', fill: '#555' }, '+' + (loads.length - 4) + ' older');
  if (!loads.length) { el(lb, 'text', { x: x + 10, y: y + 11, fill: '#777' }, 'none'); y += 17; }
  y = Math.max(y, CORE_Y + 44 + 13 + 2 * 17) + 4;
  el(g, 'text', { x: x + 8, y: y + 9, 'font-family': 'system-ui, sans-serif', fill: '#333' }, 'store buffer');
  const sbox = el(g, 'g', { id: 'sb-c' + D.cores[c], 'data-n': sb.filter(o => o[7] !== k).length });
  y += 13;
  const boxH = CORE_Y + CORE_H - 6 - y;
  el(sbox, 'rect', { x: x + 6, y, width: CW - 12, height: boxH, fill: '#fff', stroke: '#444', 'stroke-dasharray': sb.length ? 'none' : '3 2' });
  let ey = y + 2;
  /* three entries fit: the waiting ones first, then those written at this step (older) before them */
  const waiting = sb.filter(o => o[7] !== k), written = sb.filter(o => o[7] === k);
  const shown = written.slice(written.length - Math.max(0, 3 - waiting.length)).concat(waiting.slice(0, 3));
  for (const o of shown) {
    const left = o[7] === k;
    const r = el(sbox, 'rect', { x: x + 8, y: ey, width: CW - 16, height: 15, rx: 2, fill: left ? '#fff' : SB_FILL, stroke: '#666', 'class': 'sb-entry' });
    el(sbox, 'text', { x: x + 12, y: ey + 11 }, fit('st ' + o[3] + ' \u2190 ' + o[4] + (left ? ' (written)' : ''), nchars - 1));
    if (!left) r.setAttribute('id', 'sb-entry-c' + D.cores[c]);
    ey += 17;
  }
  if (!sb.length) el(sbox, 'text', { x: x + 12, y: ey + 11, fill: '#777' }, 'empty');
  if (waiting.length > 3) el(sbox, 'text', { x: x + CW - 10, y: y - 4, 'text-anchor': 'end', fill: '#000', 'font-weight': 700 }, '+' + (waiting.length - 3) + ' younger');
  if (pc >= 0) el(g, 'title', {}, 'next to retire: ' + ins[1] + ' (' + ins[0] + '), retires at cycle ' + cyc);
}
function drawCache(g, c, k, s, changed) {
  const x = coreX(c), y = CACHE_Y;
  el(g, 'rect', { x, y, width: CW, height: CACHE_H, rx: 4, fill: '#fff', stroke: '#444' });
  el(g, 'text', { x: x + 8, y: y + 14, 'font-family': 'system-ui, sans-serif', fill: '#333' }, 'core ' + D.cores[c] + ' private cache');
  const nameW = Math.min(96, CW * 0.38), stW = Math.min(70, CW * 0.28);
  D.lines.forEach((l, i) => {
    const [st, , v] = snap[k][i][c], ly = y + 20 + i * LINE_H, prev = v == null && !STABLE.has(st) ? lastVals(k, i, c) : null;
    el(g, 'text', { x: x + 6, y: ly + 12, 'font-weight': s && s.l === i ? 700 : 400 }, fit(l.name, Math.floor(nameW / CH)));
    const r = stateCell(g, x + nameW, ly, stW, st, 'svg-' + l.name + '-c' + D.cores[c], changed.has(i + ':' + c));
    r.setAttribute('data-state', st);
    const shown = v != null ? fmtVals(v) : prev != null ? fmtVals(prev) : '';
    el(g, 'text', { x: x + nameW + stW + 6, y: ly + 12, fill: v != null ? '#000' : '#999', 'font-style': v != null ? 'normal' : 'italic' },
       fit(shown, Math.floor((CW - nameW - stW - 10) / CH)));
  });
}
/* the values a cache last held (drawn grey while a transient state waits for new data) */
function lastVals(k, i, c) { for (let j = k; j >= 0; j--) { const [st, , v] = snap[j][i][c]; if (v != null) return v; if (st === 'I') return null; } return null; }
/* the request whose transaction holds the bus at cycle cyc: from its grant until its data is in
 * (the page writer's m.h), address phase, the responder's wait and data phase alike */
function busHolder(cyc) {
  for (const m of D.msgs) if (m.to === 'bus' && m.s <= cyc && cyc <= m.h) return m;
  return null;
}
function drawBus(g, k, cyc) {
  const hold = D.bus ? busHolder(cyc) : null;
  el(g, 'rect', { x: PAD, y: BUS_Y, width: W - 2 * PAD, height: BUS_H, rx: 4, fill: hold ? '#0072B2' : '#e8e8e8', stroke: '#444', id: 'bus' });
  const label = D.bus ? (hold ? 'bus: held by ' + hold.f + ' for ' + hold.t + ' (granted at cycle ' + hold.s + '; ' +
                                (cyc <= hold.a ? 'address phase' : 'until its data is in') + ', free after cycle ' + hold.h + ')' : 'bus: free')
                      : 'interconnect (each message takes the cycles its arrow says)';
  el(g, 'text', { x: PAD + 10, y: BUS_Y + 17, fill: hold ? '#fff' : '#222', 'font-weight': 700, 'font-family': 'system-ui, sans-serif', id: 'bus-label' }, label);
}
function drawHome(g, k, s, changed) {
  el(g, 'rect', { x: HOME_X, y: HOME_Y, width: HOME_W, height: HOME_H, rx: 6, fill: '#f7f7f7', stroke: '#444', id: 'home' });
  el(g, 'text', { x: HOME_X + 8, y: HOME_Y + 16, 'font-weight': 700, 'font-size': 13, 'font-family': 'system-ui, sans-serif' },
     D.bus ? 'home: the memory controller' : 'home: directory entry and queue');
  D.lines.forEach((l, i) => {
    const [st, hold] = snap[k][i][COL_DIR], q = snap[k][i][COL_QUEUE][2] || [], y = HOME_Y + 24 + i * 2 * LINE_H;
    el(g, 'text', { x: HOME_X + 8, y: y + 12, 'font-weight': s && s.l === i ? 700 : 400 }, fit(l.name, 14));
    stateCell(g, HOME_X + 104, y, 64, st, 'svg-' + l.name + '-dir', changed.has(i + ':' + COL_DIR)).setAttribute('data-state', st);
    /* the directory's holders, or on a bus what the memory's state means: the page writer's words */
    const hw = el(g, 'text', { x: HOME_X + 176, y: y + 12, id: 'home-' + l.name }, fit(hold, Math.floor((HOME_W - 184) / CH)));
    hw.appendChild(document.createElementNS(SVGNS, 'title')).textContent = hold;
    const qg = el(g, 'g', { id: 'queue-' + l.name, 'data-n': q.length });
    el(qg, 'text', { x: HOME_X + 24, y: y + LINE_H + 12, fill: '#333', 'font-family': 'system-ui, sans-serif' }, 'queue:');
    let qx = HOME_X + 104;
    if (!q.length) el(qg, 'text', { x: qx, y: y + LINE_H + 12, fill: '#777' }, 'empty');
    q.forEach((mi, j) => {
      const m = D.msgs[mi], t = m.t + ' from ' + m.f, w = t.length * CH + 8;
      if (qx + w > HOME_X + HOME_W - 4) { qx = Infinity; return; } /* the rest would not fit */
      el(qg, 'rect', { x: qx, y: y + LINE_H, width: w, height: LINE_H - 4, rx: 3, fill: QUEUE_FILL, stroke: '#0072B2', 'stroke-width': 2,
                       id: 'queue-' + l.name + '-' + j });
      el(qg, 'text', { x: qx + 4, y: y + LINE_H + 12 }, t);
      qx += w + 4;
    });
  });
}
function drawMemory(g, k) {
  el(g, 'rect', { x: MEM_X, y: HOME_Y, width: MEM_W, height: HOME_H, rx: 6, fill: '#fff', stroke: '#444', id: 'memory' });
  el(g, 'text', { x: MEM_X + 8, y: HOME_Y + 16, 'font-weight': 700, 'font-size': 13, 'font-family': 'system-ui, sans-serif' }, 'memory');
  D.lines.forEach((l, i) => {
    const v = snap[k][i][COL_MEM][2], y = HOME_Y + 24 + i * 2 * LINE_H;
    /* stale: a cache holds a stable copy with other values */
    let stale = false;
    for (let c = 0; c < NC; c++) { const [st, , cv] = snap[k][i][c]; if (v && cv && STABLE.has(st) && fmtVals(cv) !== fmtVals(v)) stale = true; }
    el(g, 'text', { x: MEM_X + 8, y: y + 12 }, fit(l.name, 14));
    const t = el(g, 'text', { x: MEM_X + 104, y: y + 12, fill: stale ? '#999' : '#000', 'font-style': stale ? 'italic' : 'normal', id: 'mem-' + l.name,
                              'data-stale': stale ? 1 : 0 }, fit(v ? fmtVals(v) + (stale ? ' (stale)' : '') : '\u2014', Math.floor((MEM_W - 110) / CH)));
    t.appendChild(document.createElementNS(SVGNS, 'title')).textContent = l.words.map((w, j) => w + ' = ' + (v ? v[j] : '?')).join(', ');
  });
}
/* where a message leaves and arrives: a cache's bottom, the bus, the home's top */
function anchor(who, slot) {
  if (who === 'home') return [HOME_X + HOME_W / 2 + slot * 14, HOME_Y];
  if (who === 'bus') return [null, BUS_Y];
  const c = D.cores.indexOf(Number(who.slice(5)));
  return [coreX(Math.max(c, 0)) + CW / 2 + slot * 14, CACHE_Y + CACHE_H];
}
const MSG_COLOUR = { req: '#0072B2', data: '#009E73', inv: '#D55E00', ack: '#CC79A7' };
/* a message's kind is the page writer's (by what it carries: a CopyBack is data), not its name's */
function msgClass(m) { return MSG_COLOUR[m.k] ? m.k : 'req'; }
function drawMsgs(g, k, cyc) {
  const paths = el(g, 'g', {}), chips = el(g, 'g', {}); /* the chips over every arrow */
  let slot = 0;
  const pairs = {}, placed = [];
  for (let i = 0; i < D.msgs.length; i++) {
    const m = D.msgs[i];
    if (m.s0 > k || m.s1 < k) continue;
    const sl = (slot++ % 5) - 2;
    let [x0, y0] = anchor(m.f, sl), [x1, y1] = anchor(m.to, sl);
    if (x1 == null) x1 = x0;
    if (x0 == null) x0 = x1;
    const cx = (x0 + x1) / 2, cy = y0 === y1 ? BUS_Y + BUS_H / 2 : (y0 + y1) / 2;
    const f = m.s1 === k && m.s0 !== k ? 1 : Math.max(0, Math.min(1, m.a > m.s ? (cyc - m.s) / (m.a - m.s) : 1));
    const col = MSG_COLOUR[msgClass(m)];
    /* on a bus every message rides the bus: down (or up) to it, along it, off it to where it goes */
    const onBus = D.bus && m.to !== 'bus', by = BUS_Y + BUS_H / 2;
    const d = onBus ? 'M' + x0 + ' ' + y0 + ' L' + x0 + ' ' + by + ' L' + x1 + ' ' + by + ' L' + x1 + ' ' + y1
                    : 'M' + x0 + ' ' + y0 + ' Q' + cx + ' ' + cy + ' ' + x1 + ' ' + y1;
    el(paths, 'path', { d, fill: 'none', stroke: col, 'stroke-width': 3, 'marker-end': 'url(#head-' + msgClass(m) + ')',
                        opacity: 0.85, 'class': 'msg', id: 'msg-path-' + i });
    /* the chip rides the arrow, kept off its ends (where the boxes are) and staggered */
    const key = [m.f, m.to].sort().join('|'); /* both ways along one path share it */
    const pair = pairs[key] = (pairs[key] || 0) + 1;
    const g0 = Math.max(0.08, Math.min(0.92, 0.12 + 0.6 * f + 0.24 * ((pair - 1) % 3)));
    const px = onBus ? x0 + (x1 - x0) * g0 : (1 - g0) * (1 - g0) * x0 + 2 * (1 - g0) * g0 * cx + g0 * g0 * x1;
    const py = onBus ? by : (1 - g0) * (1 - g0) * y0 + 2 * (1 - g0) * g0 * cy + g0 * g0 * y1;
    const label = m.t, w = label.length * 7 + 10;
    /* a chip never hides another: moved down (then up) off any it would cover */
    let cxp = px - w / 2, cyp = py - 9;
    const hits = (a, b) => a[0] < b[0] + b[2] && b[0] < a[0] + a[2] && a[1] < b[1] + 18 && b[1] < a[1] + 18;
    for (let t = 0; t < 8 && placed.some(b => hits([cxp, cyp, w], b)); t++) cyp = py - 9 + (t % 2 ? -1 : 1) * 20 * (1 + (t >> 1));
    placed.push([cxp, cyp, w]);
    const chip = el(chips, 'g', { 'class': 'msg-chip', id: 'msg-' + i, transform: 'translate(' + cxp + ',' + cyp + ')' });
    el(chip, 'rect', { width: w, height: 18, rx: 9, fill: col, stroke: '#000' });
    el(chip, 'text', { x: w / 2, y: 13, 'text-anchor': 'middle', fill: '#fff', 'font-weight': 700 }, label);
    chip.appendChild(document.createElementNS(SVGNS, 'title')).textContent = m.x + ' (' + m.f + ' \u2192 ' + m.to + ', cycles ' + m.s + '\u2013' + m.a + '): ' + m.d;
  }
}
function drawMachine(k, cyc) {
  const s = k > 0 ? D.steps[k - 1] : null;
  const changed = new Set(s ? s.ch.map(([l, c]) => l + ':' + c) : []);
  svg.textContent = '';
  const defs = el(svg, 'defs', {});
  const pat = el(defs, 'pattern', { id: 'hatch', width: 6, height: 6, patternUnits: 'userSpaceOnUse', patternTransform: 'rotate(45)' });
  el(pat, 'rect', { width: 2, height: 6, fill: '#000', opacity: 0.25 });
  for (const cl in MSG_COLOUR) {
    const mk = el(defs, 'marker', { id: 'head-' + cl, viewBox: '0 0 10 10', refX: 9, refY: 5, markerWidth: 5, markerHeight: 5, orient: 'auto-start-reverse' });
    el(mk, 'path', { d: 'M0 0L10 5L0 10z', fill: MSG_COLOUR[cl] });
  }
  const g = el(svg, 'g', { 'font-family': 'ui-monospace, monospace', 'font-size': 11 });
  for (let c = 0; c < NC; c++) { drawCore(g, c, k, s); drawCache(g, c, k, s, changed); }
  drawBus(g, k, cyc);
  drawHome(g, k, s, changed);
  drawMemory(g, k);
  drawMsgs(el(svg, 'g', { 'font-family': 'system-ui, sans-serif', 'font-size': 11, id: 'msgs' }), k, cyc);
  /* where things are, for tests that look at the screenshot */
  for (const r of svg.querySelectorAll('[id]')) markBox(r);
  markBox(tableBox);
}
function markBox(r) {
  const b = r.getBoundingClientRect();
  r.setAttribute('data-box', [b.left + scrollX, b.top + scrollY, b.width, b.height].map(Math.round).join(','));
}

/* ---------------- the protocol's table, the fired row marked ---------------- */
function drawTable(s) {
  const dir = s && s.ri != null ? s.rd : 0, rows = D.table[dir];
  let h = '<div class="tab-title">' + (dir ? (D.bus ? 'memory' : 'directory') : 'cache') + ' table of ' + esc(D.protocol) + '</div><ol start="0">';
  rows.forEach((r, i) => { h += '<li' + (s && s.ri === i ? ' id="fired" class="fired"' : '') + '>' + esc(r) + '</li>'; });
  tableBox.innerHTML = h + '</ol>';
  const f = document.getElementById('fired');
  if (f) tableBox.scrollTop = f.offsetTop - tableBox.clientHeight / 2;
}

/* ---------------- the tables under it ---------------- */
function hashFor(k) { return '#step=' + k + '&line=' + encodeURIComponent(D.lines[Number(lineSel.value)] ? D.lines[Number(lineSel.value)].name : ''); }
function render() {
  const s = step > 0 ? D.steps[step - 1] : null;
  document.getElementById('step-no').textContent = 'step ' + step + ' of ' + N + ' \u00b7 cycle ' + (s ? s.c : 0);
  document.getElementById('event').textContent = s ? s.c + '  ' + s.who + '  ' + (s.l >= 0 ? D.lines[s.l].name + '  ' : '') + s.t : 'start: every line is I in every cache and ' + D.homeStart + ' at the home';
  document.getElementById('what').textContent = s ? s.w : '';
  const acc = accessAt(step);
  document.getElementById('access').textContent = acc ? 'scripted access ' + acc.t + ' in progress, on core ' + acc.core : '';
  document.getElementById('explain').textContent = s ? s.x : 'Step forward to watch the run, one event at a time.';
  const changed = new Set(s ? s.ch.map(([l, c]) => l + ':' + c) : []);
  let h = '<tr><th>line</th>';
  for (let c = 0; c < NC; c++) h += '<th>core ' + D.cores[c] + ' cache</th>';
  h += '<th>' + esc(D.homeTitle) + '</th></tr>';
  const snapNow = snap[step];
  D.lines.forEach((l, i) => {
    h += '<tr' + (s && s.l === i ? ' class="current"' : '') + '><th title="' + esc(l.addr + ': ' + l.vars) + '">' + esc(l.name) + '</th>';
    for (let c = 0; c <= NC; c++) {
      const [st, hold] = snapNow[i][c];
      const doc = c < NC ? D.cacheStates[st] : D.dirStates[st];
      const cls = 'st ' + (STABLE.has(st) ? 'stable' : 'transient') + (changed.has(i + ':' + c) ? ' changed' : '');
      h += '<td id="' + esc(cellId(i, c)) + '" class="' + cls + '" title="' + esc(doc || '') + '">' + esc(st) + (hold ? '<small>' + esc(hold) + '</small>' : '') + '</td>';
    }
    h += '</tr>';
  });
  document.getElementById('states').innerHTML = h;
  let f = '';
  for (const m of D.msgs) {
    if (m.s0 > step || m.s1 < step) continue;
    const tag = m.s0 === step ? 'sent' : m.s1 === step ? 'arrives' : '';
    f += '<li class="' + tag + '"><code>' + esc(m.t) + '</code> ' + esc(m.f) + ' &#8594; ' + esc(m.to) + (m.l >= 0 ? ' (' + esc(D.lines[m.l].name) + ')' : '') +
         ', sent at ' + m.s + ', arrives at ' + m.a + (tag === 'sent' ? ' \u2014 sent at this step' : tag === 'arrives' ? ' \u2014 arrives at this step' : '') +
         ': ' + esc(m.d) + '</li>';
  }
  document.getElementById('flight').innerHTML = f || '<li>none</li>';
  const run = s ? s.run : D.start;
  let c = '<tr><th>core</th><th>lock</th><th>next to retire</th><th title="the cycle at which that op retires (it may be later than this step)">retires at cycle</th></tr>';
  for (let t = 0; t < NC; t++) {
    const [pc, cyc] = run[t];
    const ins = pc >= 0 ? D.insns[pc] : null;
    const doing = D.accesses.length ? (acc && acc.core === D.cores[t] ? 'access <code>' + esc(acc.t) + '</code>' : 'idle') : null;
    c += '<tr><td>core ' + D.cores[t] + '</td><td>' + PHASES[s ? s.ph[t] : 0] + '</td><td>' +
         (doing || (ins ? '<code>' + esc(ins[1]) + '</code> (' + esc(ins[0]) + ')' : 'halted')) + '</td><td>' + (ins && !doing ? cyc : '') + '</td></tr>';
  }
  document.getElementById('cores').innerHTML = c;
  if (D.dropped) document.getElementById('explain').textContent += ' (The page holds the first ' + N + ' steps; ' + D.dropped + ' more were left out: trace a shorter run.)';
  drawMachine(step, cycleAt(step));
  drawTable(s);
  const link = hashFor(step);
  document.getElementById('permalink').setAttribute('href', link);
  try { history.replaceState(null, '', link); } catch (e) { }
}
function go(k) { step = Math.max(0, Math.min(N, k)); render(); }
function transition(dir) {
  const l = Number(lineSel.value);
  for (let k = step + dir; k >= 1 && k <= N; k += dir) { const s = D.steps[k - 1]; if (s.l === l && s.tr) { go(k); return; } }
}

/* ---------------- play / pause: the messages move over the cycles between steps ---------------- */
const playBtn = document.getElementById('play'), speedSel = document.getElementById('speed');
function stepMs() { return 900 / Number(speedSel.value); }
function tick() {
  if (step >= N) { pause(); return; }
  const t0 = performance.now(), c0 = cycleAt(step), c1 = cycleAt(step + 1), k = step;
  /* the frames move the messages; the timer steps (frames stop where a page is not drawn) */
  const frame = now => {
    if (!playing || step !== k) return;
    const f = Math.min(1, (now - t0) / stepMs());
    drawMachine(k, c0 + (c1 - c0) * f);
    if (f < 1) animT = requestAnimationFrame(frame);
  };
  animT = requestAnimationFrame(frame);
  playing = setTimeout(() => { cancelAnimationFrame(animT); go(step + 1); tick(); }, stepMs());
}
function play() { if (playing) return; if (step >= N) go(0); playing = setTimeout(tick, 0); playBtn.textContent = '\u275a\u275a pause'; }
function pause() { clearTimeout(playing); cancelAnimationFrame(animT); playing = null; playBtn.textContent = '\u25b6 play'; render(); }
playBtn.onclick = () => (playing ? pause() : play());

/* #step=N opens step N; &line=NAME chooses the line for n/p; &focus=line puts the focus on the
 * line menu; &press=KEYS then presses those keys (at the focused element); &play plays on */
function fromHash() {
  const m = /step=(\d+)/.exec(location.hash), l = /line=([^&]+)/.exec(location.hash), p = /press=([jknp]+)/.exec(location.hash);
  if (l) { const i = D.lines.findIndex(x => x.name === decodeURIComponent(l[1])); if (i >= 0) lineSel.value = i; }
  const playOn = /&play/.test(location.hash); /* read before go() rewrites the address */
  if (/focus=line/.test(location.hash)) lineSel.focus();
  go(m ? Number(m[1]) : 0);
  if (p) for (const key of p[1]) (document.activeElement || document).dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true }));
  if (playOn) play();
}
document.getElementById('first').onclick = () => go(0);
document.getElementById('prev').onclick = () => go(step - 1);
document.getElementById('next').onclick = () => go(step + 1);
document.getElementById('last').onclick = () => go(N);
document.getElementById('nexttr').onclick = () => transition(1);
document.getElementById('prevtr').onclick = () => transition(-1);
lineSel.addEventListener('change', () => { render(); lineSel.blur(); });
/* The keys work wherever the focus is: the line menu keeps only its own Up and Down. */
document.addEventListener('keydown', e => {
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  const k = { ArrowRight: 1, j: 1, ArrowLeft: -1, k: -1 }[e.key];
  if (k) go(step + k);
  else if (e.key === 'n') transition(1);
  else if (e.key === 'p') transition(-1);
  else if (e.key === 'Home') go(0);
  else if (e.key === 'End') go(N);
  else if (e.key === ' ' && e.target.tagName !== 'BUTTON') { if (playing) pause(); else play(); }
  else return;
  e.preventDefault();
});
window.addEventListener('hashchange', fromHash);
let lg = '<tr><th>state</th><th>in a cache</th><th>at the home</th></tr>';
for (const st of new Set([...Object.keys(D.cacheStates), ...Object.keys(D.dirStates)]))
  lg += '<tr><td><code>' + esc(st) + '</code></td><td>' + esc(D.cacheStates[st] || '') + '</td><td>' + esc(D.dirStates[st] || '') + '</td></tr>';
document.getElementById('legend').innerHTML = lg;
/* the colour key beside the machine */
let key = '';
for (const st of ['M', 'O', 'E', 'S', 'F', 'I']) if (D.cacheStates[st]) key += '<span class="key" style="background:' + FILL[st] + ';color:' + INK[st] + '">' + st + '</span> ';
key += '<span class="key transient">SM_AD</span> transient (hatched) &nbsp; <span class="key" style="background:' + SB_FILL + '">st</span> store waiting in the store buffer &nbsp; messages: ';
for (const cl in MSG_COLOUR) key += '<span class="key" style="background:' + MSG_COLOUR[cl] + ';color:#fff">' + { req: 'request', data: 'data', inv: 'inv / forward', ack: 'ack' }[cl] + '</span> ';
document.getElementById('colour-key').innerHTML = key + ' &nbsp; memory in grey italics: stale';
fromHash();
