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
function cellId(l, c) { return 'cell-' + D.lines[l].name + '-' + (c < NC ? 'c' + PHYS[c] : 'dir'); }
function cycleAt(k) { return k > 0 ? D.steps[k - 1].c : 0; }
function fmtVals(v) { return v == null ? '' : v.map(x => (x >= 65536 ? '0x' + x.toString(16) : String(x))).join(', '); }

/* ---------------- the machine, drawn ---------------- */
const svg = document.getElementById('machine'), tableBox = document.getElementById('table');
/* Who is who: a thread's name as the text trace gives it ("core 0.1" with SMT), its CPU (D.cores)
 * and its physical core (D.phys), whose one cache its hardware threads and time-shared threads
 * use.  A core is drawn once, with a panel per CPU (two with SMT) and its one cache under it;
 * time-shared threads show as the one on the CPU and a queue of the others. */
const NAMES = D.names || D.cores.map(c => 'core ' + c), PHYS = D.phys || D.cores.slice();
const GROUPS = []; /* {phys, col (the cache's column), panels: [{cpu, col, name}], threads: [t]} */
for (let t = 0; t < NC; t++) {
  let g = GROUPS.find(x => x.phys === PHYS[t]);
  if (!g) GROUPS.push(g = { phys: PHYS[t], col: t, panels: [], threads: [] });
  g.threads.push(t);
  if (!g.panels.some(p => p.cpu === D.cores[t])) g.panels.push({ cpu: D.cores[t], col: t, name: NAMES[t] });
}
const SMT = GROUPS.some(g => g.panels.length > 1), SHARED = !!D.timeShared && GROUPS.some(g => g.threads.length > g.panels.length);
const CACHE_COLS = GROUPS.map(g => g.col);
function threadName(t) { return SHARED ? 'thread ' + t : NAMES[t]; }
/* a logical CPU as the text trace names it ("core 0.1" with SMT) */
function cpuName(cpu) { const t = D.cores.indexOf(cpu); return t >= 0 ? NAMES[t] : 'core ' + cpu; }
/* The sizes come from what the run will show, so that no state name, value, store-buffer or
 * queue entry is ever cut: a box is as wide as its longest text, and a row of cores wraps. */
const CH = 6.6; /* px per character of the 11px monospace */
const LINE_H = 20, PAD = 10, GAP = 12, ROW_H = 16;
function longest(list) { let n = 0; for (const s of list) n = Math.max(n, String(s).length); return n; }
function opText(o, what) { return o[1] === 'l' ? 'ld ' + o[3] + ' ' + what : 'st ' + o[3] + ' \u2190 ' + o[4] + what; }
const panelTexts = [];
for (const o of D.ops) panelTexts.push(...(o[1] === 'l' ? [opText(o, 'squashed'), opText(o, '= ' + o[4])] : [opText(o, ' (written)')]));
for (let t = 0; t < NC; t++) for (const p of PHASES) panelTexts.push(threadName(t) + ' \u00b7 ' + p);
if (SHARED) panelTexts.push('asleep/done: thread ' + (NC - 1) + ' +' + NC, 'switching to thread ' + (NC - 1)); /* a run queue shows one and "+N" at least */
/* the op a panel retires next, or a script's access, takes up to two rows: wrapped at spaces */
function wrap(s, chars) {
  const out = [''];
  for (const w of String(s).split(' ')) {
    const last = out[out.length - 1];
    if (last && last.length + 1 + w.length > chars) out.push(w); else out[out.length - 1] = last ? last + ' ' + w : w;
  }
  return out;
}
function twoRows(s) { let n = longest(String(s).split(' ')); while (wrap(s, n).length > 2) n++; return n; }
const nextTexts = D.insns.map(ins => 'next: ' + ins[1]).concat(D.accesses.map(a => 'doing ' + a.t));
const PW = Math.max(150, longest(panelTexts) * CH + 28, Math.max(0, ...nextTexts.map(twoRows)) * CH + 20);
/* a cache's row: the line's name, its state, its values (the longest any step shows) */
const ALL_STATES = Object.keys(D.cacheStates).concat(Object.keys(D.dirStates));
const NAME_W = Math.max(56, longest(D.lines.map(l => l.name)) * CH + 10), ST_W = Math.max(44, longest(ALL_STATES) * CH + 12);
let valChars = 1, holdChars = 10, memChars = 1;
for (const sn of snap) for (const row of sn) row.forEach(([, h, v], c) => {
  const n = v == null ? 0 : c === COL_MEM ? (fmtVals(v) + ' (stale)').length : c < NC ? fmtVals(v).length : 0;
  if (c < NC) valChars = Math.max(valChars, n); else if (c === COL_MEM) memChars = Math.max(memChars, n);
  if (c === COL_DIR) holdChars = Math.max(holdChars, String(h).length);
});
const CACHE_NEED = 6 + NAME_W + ST_W + 8 + valChars * CH + 8;
for (const g of GROUPS) {
  g.w = Math.max(g.panels.length * PW + (g.panels.length - 1) * 6 + 12, CACHE_NEED, longest([groupTitle(g)]) * 7.8 + 16);
}
function groupTitle(g) {
  return 'core ' + g.phys + (g.panels.length > 1 ? ' (' + g.panels.length + ' hardware threads share its cache)' : '');
}
/* the home and memory: the holders' words and the values, whole */
const HOME_NEED = NAME_W + 12 + 64 + 12 + holdChars * CH + 8, MEM_NEED = NAME_W + 12 + memChars * CH + 8;
/* up to four cores side by side, more on a wider drawing (it scales to the page): 16 in rows of 6 */
const PER_ROW = GROUPS.length <= 4 ? GROUPS.length : Math.ceil(GROUPS.length / Math.ceil(GROUPS.length / 6));
const ROW_W = Math.max(...GROUPS.map(g => g.w)) * PER_ROW + GAP * (PER_ROW - 1) + 2 * PAD;
const W = Math.max(840, ROW_W, HOME_NEED + MEM_NEED + GAP + 2 * PAD);
const HOME_X = PAD, HOME_W = Math.max(HOME_NEED, Math.min((W - 2 * PAD) * 0.62, W - 2 * PAD - GAP - MEM_NEED));
const MEM_X = HOME_X + HOME_W + GAP, MEM_W = W - PAD - MEM_X;
/* a panel: its name and phase, the next op, two loads in flight, three store-buffer entries;
 * under it on a time-shared core, the threads waiting for it */
const PANEL_H = 5 * ROW_H + 2 * 17 + 13 + 3 * 17 + 10, RUNQ_H = SHARED ? 2 * ROW_H + 4 : 0;
const CORE_H = (SMT ? ROW_H + 6 : 0) + ROW_H + 4 + PANEL_H + RUNQ_H, CACHE_H = 24 + NL * LINE_H;
const UNIT_H = CORE_H + 8 + CACHE_H + 30;
let gx = PAD, gy = 8;
for (const g of GROUPS) {
  if (gx > PAD && gx + g.w > W - PAD + 0.5) { gx = PAD; gy += UNIT_H; }
  g.x = gx; g.y = gy; gx += g.w + GAP;
}
const BUS_Y = gy + CORE_H + 8 + CACHE_H + 34, BUS_H = 26;
const HOME_Y = BUS_Y + BUS_H + 34, HOME_H = 30 + NL * 2 * LINE_H, H = HOME_Y + HOME_H + 8;
svg.setAttribute('viewBox', '0 0 ' + W + ' ' + H);
svg.setAttribute('width', W); svg.setAttribute('height', H);
function el(parent, tag, attrs, text) {
  const e = document.createElementNS(SVGNS, tag);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  if (text != null) e.textContent = text;
  parent.appendChild(e);
  return e;
}
/* the widths above are made to hold every text; this only guards what they cannot foresee */
function fit(s, chars) { s = String(s); return s.length > chars ? s.slice(0, chars - 1) + '\u2026' : s; }
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
/* time-shared threads: where thread t is at step k ([where, cpu]; each thread on its own CPU
 * when the run has no OS model) */
function whereAt(k, t) { const s = k > 0 ? D.steps[k - 1] : null; return s && s.tw ? s.tw[t] : [t === panelCol(D.cores[t]) ? 'run' : 'ready', D.cores[t]]; }
function panelCol(cpu) { return D.cores.indexOf(cpu); }
/* the thread on a CPU at step k, -1: none */
function loadingOn(k, cpu) { for (let t = 0; t < NC; t++) { const [w, c] = whereAt(k, t); if (w === 'load' && c === cpu) return t; } return -1; }
function runningOn(k, cpu) { for (let t = 0; t < NC; t++) { const [w, c] = whereAt(k, t); if (w === 'run' && c === cpu) return t; } return -1; }
function drawGroup(g, grp, k, s) {
  const x = grp.x, y0 = grp.y;
  el(g, 'rect', { x, y: y0, width: grp.w, height: CORE_H, rx: 6, fill: '#f7f7f7', stroke: '#444', id: 'core-' + grp.phys });
  el(g, 'text', { x: x + 8, y: y0 + 15, 'font-weight': 700, 'font-size': 13, 'font-family': 'system-ui, sans-serif', id: 'core-title-' + grp.phys }, groupTitle(grp));
  const pw = (grp.w - 12 - (grp.panels.length - 1) * 6) / grp.panels.length;
  grp.panels.forEach((p, i) => drawPanel(g, p, x + 6 + i * (pw + 6), y0 + ROW_H + 4, pw, k, s));
}
function drawPanel(g, p, x, y0, w, k, s) {
  const c = p.col, run = s ? s.run : D.start, [pc, cyc] = run[c];
  const who = SHARED ? runningOn(k, p.cpu) : c, ph = who < 0 ? -1 : s ? s.ph[who] : 0;
  const nchars = Math.floor((w - 16) / CH);
  if (SMT) el(g, 'rect', { x, y: y0, width: w, height: PANEL_H + RUNQ_H - 4, rx: 4, fill: '#fbfbfb', stroke: '#999', id: 'panel-c' + p.cpu });
  /* the thread's name (with SMT or time-sharing) and its phase, on a line of their own */
  const coming = SHARED && who < 0 ? loadingOn(k, p.cpu) : -1;
  const label = coming >= 0 ? 'switching to thread ' + coming
              : (SMT || SHARED ? (who < 0 ? 'no thread' : threadName(who)) + ' \u00b7 ' : '') + (ph < 0 ? 'idle' : PHASES[ph]);
  el(g, 'text', { x: x + 8, y: y0 + 13, 'font-family': 'system-ui, sans-serif', id: 'phase-c' + p.cpu,
                  fill: ph === 2 ? '#D55E00' : ph === 1 ? '#0072B2' : '#555', 'font-weight': ph > 0 ? 700 : 400 }, label);
  const ins = pc >= 0 ? D.insns[pc] : null;
  const acc = accessAt(k), mine = acc && acc.core === p.cpu;
  const next = D.accesses.length ? (mine ? 'doing ' + acc.t : 'idle') : ins ? 'next: ' + ins[1] : 'halted';
  /* a script has no program: the core does its access (or waits) */
  const nt = el(g, 'text', D.accesses.length ? { id: 'access-c' + p.cpu, 'font-weight': mine ? 700 : 400, fill: mine ? '#000' : '#777' } : {});
  const rows = wrap(next, nchars);
  if (rows.length === 1) { nt.setAttribute('x', x + 8); nt.setAttribute('y', y0 + 13 + ROW_H); nt.textContent = next; }
  else rows.slice(0, 2).forEach((part, i) => el(nt, 'tspan', { x: x + 8, y: y0 + 13 + (1 + i) * ROW_H }, fit(part, nchars)));
  const ops = opsAt(c, k);
  const loads = ops.filter(o => o[1] === 'l'), sb = ops.filter(o => o[1] === 's');
  let y = y0 + 3 * ROW_H + 4;
  el(g, 'text', { x: x + 8, y: y + 9, 'font-family': 'system-ui, sans-serif', fill: '#333' }, 'loads in flight');
  const lb = el(g, 'g', { id: 'loads-c' + p.cpu, 'data-n': loads.length });
  if (loads.length > 2) el(lb, 'text', { x: x + w - 8, y: y + 9, 'text-anchor': 'end', fill: '#000', 'font-weight': 700, 'class': 'more' }, '+' + (loads.length - 2) + ' older');
  y += 13;
  for (const o of loads.slice(-2)) {
    const done = o[7] === k ? o[8] : '', performed = o[6] >= 0 && o[6] <= k;
    const what = done === 'x' ? 'squashed' : done === 'r' ? 'retired' : performed ? '= ' + o[4] : 'issued';
    el(lb, 'rect', { x: x + 6, y, width: w - 12, height: 15, rx: 2, fill: done === 'x' ? '#fde0cf' : performed ? '#dbeefa' : '#fff', stroke: '#999', 'class': 'entry' });
    const t = el(lb, 'text', { x: x + 10, y: y + 11, fill: done === 'x' ? '#a33' : '#000', 'text-decoration': done === 'x' ? 'line-through' : 'none' },
                 fit(opText(o, what), nchars - 1));
    t.appendChild(document.createElementNS(SVGNS, 'title')).textContent = D.insns[o[2]] ? D.insns[o[2]].join(': ') : '';
    y += 17;
  }
  if (!loads.length) el(lb, 'text', { x: x + 10, y: y + 11, fill: '#777' }, 'none');
  y = y0 + 3 * ROW_H + 4 + 13 + 2 * 17 + 4;
  el(g, 'text', { x: x + 8, y: y + 9, 'font-family': 'system-ui, sans-serif', fill: '#333' }, 'store buffer');
  const sbox = el(g, 'g', { id: 'sb-c' + p.cpu, 'data-n': sb.filter(o => o[7] !== k).length });
  y += 13;
  el(sbox, 'rect', { x: x + 6, y, width: w - 12, height: 3 * 17 + 4, fill: '#fff', stroke: '#444', 'stroke-dasharray': sb.length ? 'none' : '3 2' });
  let ey = y + 2;
  /* three entries fit: the waiting ones first, then those written at this step (older) before them */
  const waiting = sb.filter(o => o[7] !== k), written = sb.filter(o => o[7] === k);
  const shown = written.slice(written.length - Math.max(0, 3 - waiting.length)).concat(waiting.slice(0, 3));
  for (const o of shown) {
    const left = o[7] === k;
    const r = el(sbox, 'rect', { x: x + 8, y: ey, width: w - 16, height: 15, rx: 2, fill: left ? '#fff' : SB_FILL, stroke: '#666', 'class': 'sb-entry entry' });
    el(sbox, 'text', { x: x + 12, y: ey + 11 }, fit(opText(o, left ? ' (written)' : ''), nchars - 1));
    if (!left) r.setAttribute('id', 'sb-entry-c' + p.cpu);
    ey += 17;
  }
  if (!sb.length) el(sbox, 'text', { x: x + 12, y: ey + 11, fill: '#777' }, 'empty');
  if (waiting.length > 3) el(sbox, 'text', { x: x + w - 8, y: y - 4, 'text-anchor': 'end', fill: '#000', 'font-weight': 700, 'class': 'more' }, '+' + (waiting.length - 3) + ' younger');
  if (pc >= 0) el(g, 'title', {}, 'next to retire: ' + ins[1] + ' (' + ins[0] + '), retires at cycle ' + cyc);
  if (SHARED) drawRunQueue(g, p, x, y0 + PANEL_H, w, k);
}
/* the threads that time-share a CPU: those waiting in its run queue, asleep or finished there */
function drawRunQueue(g, p, x, y, w, k) {
  const q = { ready: [], asleep: [], done: [] };
  for (let t = 0; t < NC; t++) { const [wh, c] = whereAt(k, t); if (c === p.cpu && q[wh]) q[wh].push(t); }
  const rq = el(g, 'g', { id: 'runq-c' + p.cpu, 'data-n': q.ready.length, 'data-threads': q.ready.join(' ') });
  const line = (ty, head, list) => {
    let t = head + (list.length ? list.map(n => 'thread ' + n).join(', ') : 'none');
    const room = Math.floor((w - 16) / CH);
    for (let n = list.length - 1; t.length > room && n > 0; n--)
      t = head + list.slice(0, n).map(m => 'thread ' + m).join(', ') + ' +' + (list.length - n);
    el(rq, 'text', { x: x + 8, y: ty, fill: '#333' }, t);
  };
  line(y + 11, 'waiting: ', q.ready);
  line(y + 11 + ROW_H, 'asleep/done: ', q.asleep.concat(q.done));
}
function drawCache(g, grp, k, s, changed) {
  const x = grp.x, y = grp.y + CORE_H + 8, c = grp.col, w = grp.w;
  el(g, 'rect', { x, y, width: w, height: CACHE_H, rx: 4, fill: '#fff', stroke: '#444', id: 'cache-' + grp.phys });
  el(g, 'text', { x: x + 8, y: y + 14, 'font-family': 'system-ui, sans-serif', fill: '#333' },
     'core ' + grp.phys + (grp.panels.length > 1 || SHARED ? ' cache (its threads share it)' : ' private cache'));
  D.lines.forEach((l, i) => {
    const [st, , v] = snap[k][i][c], ly = y + 20 + i * LINE_H, prev = v == null && !STABLE.has(st) ? lastVals(k, i, c) : null;
    el(g, 'text', { x: x + 6, y: ly + 12, 'font-weight': s && s.l === i ? 700 : 400 }, fit(l.name, Math.floor(NAME_W / CH)));
    const r = stateCell(g, x + 6 + NAME_W, ly, ST_W, st, 'svg-' + l.name + '-c' + grp.phys, changed.has(i + ':' + c));
    r.setAttribute('data-state', st);
    const shown = v != null ? fmtVals(v) : prev != null ? fmtVals(prev) : '';
    el(g, 'text', { x: x + 6 + NAME_W + ST_W + 8, y: ly + 12, fill: v != null ? '#000' : '#999', 'font-style': v != null ? 'normal' : 'italic' },
       fit(shown, Math.floor((w - NAME_W - ST_W - 20) / CH)));
  });
}
/* the values a cache last held (drawn grey while a transient state waits for new data) */
function lastVals(k, i, c) { for (let j = k; j >= 0; j--) { const [st, , v] = snap[j][i][c]; if (v != null) return v; if (st === 'I') return null; } return null; }
/* the request whose transaction holds the bus at cycle cyc: from its grant until its data is in
 * (the page writer's m.h), address phase, the responder's wait and data phase alike */
function grantOf(m) { return m.g != null ? m.g : m.s; }
function busHolder(cyc) {
  for (const m of D.msgs) if (m.to === 'bus' && grantOf(m) <= cyc && cyc <= m.h) return m;
  return null;
}
function drawBus(g, k, cyc) {
  const hold = D.bus ? busHolder(cyc) : null;
  el(g, 'rect', { x: PAD, y: BUS_Y, width: W - 2 * PAD, height: BUS_H, rx: 4, fill: hold ? '#0072B2' : '#e8e8e8', stroke: '#444', id: 'bus' });
  const label = D.bus ? (hold ? 'bus: held by ' + hold.f + ' for ' + hold.t + ' (granted at cycle ' + grantOf(hold) + '; ' +
                                (cyc <= hold.a ? 'address phase' : 'until its data is in') + ', free after cycle ' + hold.h + ')' : 'bus: free')
                      : 'interconnect (each message takes the cycles its arrow says)';
  el(g, 'text', { x: PAD + 10, y: BUS_Y + 17, fill: hold ? '#fff' : '#222', 'font-weight': 700, 'font-family': 'system-ui, sans-serif', id: 'bus-label' }, label);
}
function drawHome(g, k, s, changed) {
  el(g, 'rect', { x: HOME_X, y: HOME_Y, width: HOME_W, height: HOME_H, rx: 6, fill: '#f7f7f7', stroke: '#444', id: 'home' });
  el(g, 'text', { x: HOME_X + 8, y: HOME_Y + 16, 'font-weight': 700, 'font-size': 13, 'font-family': 'system-ui, sans-serif' },
     D.bus ? 'home: the memory controller' : 'home: directory entry and queue');
  const stX = HOME_X + 8 + NAME_W, wordsX = stX + 64 + 8;
  D.lines.forEach((l, i) => {
    const [st, hold] = snap[k][i][COL_DIR], q = snap[k][i][COL_QUEUE][2] || [], y = HOME_Y + 24 + i * 2 * LINE_H;
    el(g, 'text', { x: HOME_X + 8, y: y + 12, 'font-weight': s && s.l === i ? 700 : 400 }, l.name);
    stateCell(g, stX, y, 64, st, 'svg-' + l.name + '-dir', changed.has(i + ':' + COL_DIR)).setAttribute('data-state', st);
    /* the directory's holders, or on a bus what the memory's state means: the page writer's words */
    const hw = el(g, 'text', { x: wordsX, y: y + 12, id: 'home-' + l.name }, fit(hold, Math.floor((HOME_X + HOME_W - wordsX - 4) / CH)));
    hw.appendChild(document.createElementNS(SVGNS, 'title')).textContent = hold;
    const qg = el(g, 'g', { id: 'queue-' + l.name, 'data-n': q.length });
    el(qg, 'text', { x: HOME_X + 24, y: y + LINE_H + 12, fill: '#333', 'font-family': 'system-ui, sans-serif' }, 'queue:');
    let qx = stX, shownN = 0;
    if (!q.length) el(qg, 'text', { x: qx, y: y + LINE_H + 12, fill: '#777' }, 'empty');
    const end = HOME_X + HOME_W - 4, MORE_W = 6 * CH + 8; /* room kept for "+N" when some do not fit */
    for (let j = 0; j < q.length; j++) {
      const m = D.msgs[q[j]], t = m.t + ' from ' + m.f, w = t.length * CH + 8;
      if (qx + w > (j === q.length - 1 ? end : end - MORE_W - 4)) break; /* the rest would not fit */
      el(qg, 'rect', { x: qx, y: y + LINE_H, width: w, height: LINE_H - 4, rx: 3, fill: QUEUE_FILL, stroke: '#0072B2', 'stroke-width': 2,
                       id: 'queue-' + l.name + '-' + j, 'class': 'entry' });
      el(qg, 'text', { x: qx + 4, y: y + LINE_H + 12 }, t);
      qx += w + 4;
      shownN++;
    }
    if (shownN < q.length)
      el(qg, 'text', { x: qx + 2, y: y + LINE_H + 12, 'font-weight': 700, id: 'queue-' + l.name + '-more', 'class': 'more' }, '+' + (q.length - shownN));
    qg.setAttribute('data-shown', shownN);
  });
}
function drawMemory(g, k) {
  el(g, 'rect', { x: MEM_X, y: HOME_Y, width: MEM_W, height: HOME_H, rx: 6, fill: '#fff', stroke: '#444', id: 'memory' });
  el(g, 'text', { x: MEM_X + 8, y: HOME_Y + 16, 'font-weight': 700, 'font-size': 13, 'font-family': 'system-ui, sans-serif' }, 'memory');
  D.lines.forEach((l, i) => {
    const v = snap[k][i][COL_MEM][2], y = HOME_Y + 24 + i * 2 * LINE_H;
    /* stale: a cache holds a stable copy with other values */
    let stale = false;
    for (const c of CACHE_COLS) { const [st, , cv] = snap[k][i][c]; if (v && cv && STABLE.has(st) && fmtVals(cv) !== fmtVals(v)) stale = true; }
    el(g, 'text', { x: MEM_X + 8, y: y + 12 }, l.name);
    const t = el(g, 'text', { x: MEM_X + 12 + NAME_W, y: y + 12, fill: stale ? '#999' : '#000', 'font-style': stale ? 'italic' : 'normal', id: 'mem-' + l.name,
                              'data-stale': stale ? 1 : 0 }, fit(v ? fmtVals(v) + (stale ? ' (stale)' : '') : '\u2014', Math.floor((MEM_W - NAME_W - 16) / CH)));
    t.appendChild(document.createElementNS(SVGNS, 'title')).textContent = l.words.map((w, j) => w + ' = ' + (v ? v[j] : '?')).join(', ');
  });
}
/* where a message leaves and arrives: a cache's bottom, the bus, the home's top */
function anchor(who, slot) {
  if (who === 'home') return [HOME_X + HOME_W / 2 + slot * 14, HOME_Y];
  if (who === 'bus') return [null, BUS_Y];
  const grp = GROUPS.find(x => x.phys === Number(who.slice(5))) || GROUPS[0];
  return [grp.x + grp.w / 2 + slot * 14, grp.y + CORE_H + 8 + CACHE_H];
}
const MSG_COLOUR = { req: '#0072B2', data: '#009E73', inv: '#D55E00', ack: '#CC79A7' };
/* a message's kind is the page writer's (by what it carries: a CopyBack is data), not its name's */
function msgClass(m) { return MSG_COLOUR[m.k] ? m.k : 'req'; }
function drawMsgs(g, k, cyc, under) {
  /* the arrows under the boxes (from a row of cores above, one passes behind the rows below),
   * the chips over everything */
  const paths = under, chips = el(g, 'g', {});
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
  const under = el(svg, 'g', { id: 'msg-paths' });
  const g = el(svg, 'g', { 'font-family': 'ui-monospace, monospace', 'font-size': 11 });
  for (const grp of GROUPS) { drawGroup(g, grp, k, s); drawCache(g, grp, k, s, changed); }
  drawBus(g, k, cyc);
  drawHome(g, k, s, changed);
  drawMemory(g, k);
  drawMsgs(el(svg, 'g', { 'font-family': 'system-ui, sans-serif', 'font-size': 11, id: 'msgs' }), k, cyc, under);
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
  document.getElementById('access').textContent = acc ? 'scripted access ' + acc.t + ' in progress, on ' + cpuName(acc.core) : '';
  document.getElementById('explain').textContent = s ? s.x : 'Step forward to watch the run, one event at a time.';
  const changed = new Set(s ? s.ch.map(([l, c]) => l + ':' + c) : []);
  let h = '<tr><th>line</th>';
  for (const grp of GROUPS)
    h += '<th>core ' + grp.phys + ' cache' + (grp.panels.length > 1 ? ' (' + esc(grp.panels.map(p => p.name).join(', ')) + ')' : '') + '</th>';
  h += '<th>' + esc(D.homeTitle) + '</th></tr>';
  const snapNow = snap[step];
  D.lines.forEach((l, i) => {
    h += '<tr' + (s && s.l === i ? ' class="current"' : '') + '><th title="' + esc(l.addr + ': ' + l.vars) + '">' + esc(l.name) + '</th>';
    for (const c of CACHE_COLS.concat([COL_DIR])) {
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
    /* time-shared threads: where each is (the next op is its CPU's, while it runs there) */
    const [wh, wc] = whereAt(step, t), on = { run: 'on', load: 'switching onto', ready: 'waiting for', asleep: 'asleep, last on', done: 'done, last on' }[wh];
    c += '<tr><td>' + esc(SHARED ? threadName(t) + ' (' + on + ' core ' + wc + ')' : NAMES[t]) + '</td><td>' + PHASES[s ? s.ph[t] : 0] + '</td><td>' +
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
/* a bus carries requests and data only: no invalidation, forward or ack is ever drawn on one */
for (const cl in MSG_COLOUR) if (!D.bus || cl === 'req' || cl === 'data') key += '<span class="key" style="background:' + MSG_COLOUR[cl] + ';color:#fff">' + { req: 'request', data: 'data', inv: 'inv / forward', ack: 'ack' }[cl] + '</span> ';
document.getElementById('colour-key').innerHTML = key + ' &nbsp; memory in grey italics: stale';
fromHash();
