// htmx under the strict Content-Security-Policy. Runs after htmx (both deferred)
// and before htmx initialises on DOMContentLoaded, so it holds whatever <meta name=htmx-config>
// a page also sets: no eval (hx-on / js: values), no <style> element for indicators, and no
// <script> elements executed from swapped HTML.
(function () {
  "use strict";
  if (!window.htmx) {
    return;
  }
  window.htmx.config.allowEval = false;
  window.htmx.config.includeIndicatorStyles = false;
  window.htmx.config.allowScriptTags = false;
})();
