// htmx under the strict Content-Security-Policy. Runs after htmx (both deferred)
// and before htmx initialises on DOMContentLoaded, so it holds whatever <meta name=htmx-config>
// a page also sets: no eval (hx-on / js: values), no <style> element for indicators, and no
// <script> elements executed from swapped HTML; and no "style" among the attributes htmx
// settles, since it copies them with setAttribute("style", ...), an inline style the CSP
// blocks (and logs) whenever a swapped element or the one it replaces carries one.
(function () {
  "use strict";
  if (!window.htmx) {
    return;
  }
  window.htmx.config.allowEval = false;
  window.htmx.config.includeIndicatorStyles = false;
  window.htmx.config.allowScriptTags = false;
  window.htmx.config.attributesToSettle = ["class", "width", "height"];
})();
