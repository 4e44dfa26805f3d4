/* Put into a copy of a step-through page by tests/test_trace.c (test_page_layout), after the
 * page's own script has drawn a step: reports, in a pre element (id layout-check), every text of the
 * drawing that is cut short ("…"), sticks out of the box it is drawn in (the smallest box around
 * where it starts), or overlaps another text, and a drawing wider than the window.  "ok N"
 * when none, N the texts looked at. */
(function () {
  const svg = document.getElementById('machine'), out = [];
  const drawn = e => !e.closest('#msgs');
  const boxes = [...svg.querySelectorAll('rect')].filter(r => drawn(r) && (r.id || r.getAttribute('class')))
    .map(r => [r.id || r.getAttribute('class'), r.getBoundingClientRect()]);
  const texts = [...svg.querySelectorAll('text')].filter(t => drawn(t) && t.textContent.trim());
  const rects = texts.map(t => t.getBoundingClientRect());
  const E = 1; /* px of rounding */
  texts.forEach((t, i) => {
    const r = rects[i], label = t.textContent, mid = r.top + r.height / 2;
    if (label.includes('\u2026')) out.push('cut: ' + label);
    let best = null;
    for (const [id, b] of boxes)
      if (r.left >= b.left - E && r.left <= b.right && mid >= b.top && mid <= b.bottom && (!best || b.width * b.height < best[1].width * best[1].height))
        best = [id, b];
    if (best && (r.right > best[1].right + E || r.left < best[1].left - E))
      out.push('sticks out of ' + best[0] + ' by ' + Math.round(r.right - best[1].right) + ' px: ' + label);
  });
  for (let i = 0; i < texts.length; i++)
    for (let j = i + 1; j < texts.length; j++) {
      const a = rects[i], b = rects[j];
      const w = Math.min(a.right, b.right) - Math.max(a.left, b.left), h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
      if (w > 2 && h > 3 && !texts[i].contains(texts[j]) && !texts[j].contains(texts[i]))
        out.push('overlap: "' + texts[i].textContent + '" and "' + texts[j].textContent + '"');
    }
  const s = svg.getBoundingClientRect();
  if (s.right > innerWidth + E || document.getElementById("table").getBoundingClientRect().right > innerWidth + E)
    out.push('the drawing ends at ' + Math.round(s.right) + ' px, past the window (' + innerWidth + ' px)');
  const pre = document.createElement('pre');
  pre.id = 'layout-check';
  pre.textContent = out.length ? out.join('\n') : 'ok ' + texts.length;
  document.body.appendChild(pre);
})();
