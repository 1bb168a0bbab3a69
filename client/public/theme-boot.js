// Apply the remembered theme before the first paint (no flash). Not sensitive data.
// A file, not an inline script, so the Content-Security-Policy can forbid inline scripts.
try {
  var t = localStorage.getItem('theme');
  if (t === 'light' || t === 'dark') document.documentElement.setAttribute('data-theme', t);
} catch (e) {}

// Preload what this page needs before main.tsx asks for it (issue 12): the home page's chunks on the
// home paths, and the first texts of the stored language (else the default, TY). The list is written
// into index.html by the build (client/build/preload-app.ts, routePreloads).
try {
  var rp = document.getElementById('route-preload');
  if (rp) {
    var d = JSON.parse(rp.textContent || '{}');
    var files = [];
    var css = [];
    if (/^\/(?:index(?:\.html)?|home|login|register|help)?\/?$/.test(location.pathname)) {
      files = files.concat(d.home || []);
      css = d.homeCss || [];
    }
    var lang = null;
    try {
      lang = localStorage.getItem('lang');
    } catch (e) {}
    var texts = (d.locales || {})[(lang || 'TY').toLowerCase()];
    if (texts) files = files.concat(texts);
    for (var i = 0; i < files.length; i++) {
      var l = document.createElement('link');
      l.rel = 'modulepreload';
      l.crossOrigin = '';
      l.href = files[i];
      document.head.appendChild(l);
    }
    for (var j = 0; j < css.length; j++) {
      var s = document.createElement('link');
      s.rel = 'stylesheet';
      s.crossOrigin = '';
      s.href = css[j];
      document.head.appendChild(s);
    }
  }
} catch (e) {}
