// The two inline scripts every page carries, whether it hydrates or not (docs/decisions/0012-every-page-scripts.md).
// Their text is fixed, so their CSP hashes are the same on every page and a cached page keeps them
// (docs/decisions/0002-csp-by-hash.md). The root layout renders them; the page handler knows their
// hashes, to tell a page that runs only these from one that runs React Router's scripts too.

/**
 * Writes the visitor's IANA time zone into the `tz` cookie (365 days) when it is missing or
 * changed, so that pages show times in it (docs/product/routes.md#dates-and-amounts). A signed-in
 * page names the zone its times were drawn in (`<html data-tz>`; a guest's page, the same for every
 * guest, names none): when that is not the browser's zone — the cookie was missing or stale, say
 * after a trip — and the cookie now holds the browser's zone, the script asks for the page again
 * (`location.replace`, a GET that adds no history entry) before its body is drawn, at most once per
 * zone in a tab, so a blocked cookie cannot loop (docs/decisions/0031-the-zone-before-the-cookie.md).
 * The zone comes from `Temporal.Now.timeZoneId()` where the browser has Temporal: the same
 * identifier as `Intl.DateTimeFormat().resolvedOptions().timeZone`, which the others use, without
 * building a date formatter: in a fresh page that loads ICU's locale data and date patterns, 35–70
 * ms of the main thread's CPU before the body is drawn, four times that on Lighthouse's phone
 * (docs/decisions/0067-the-zone-from-temporal.md).
 */
export const TIME_ZONE_SCRIPT =
  "(function(){try{var z;try{z=Temporal.Now.timeZoneId()}catch(e){z=Intl.DateTimeFormat().resolvedOptions().timeZone}" +
  'var c=" tz="+encodeURIComponent(z)+";";if(!z)return;' +
  'function has(){return(" "+document.cookie+";").indexOf(c)>=0}' +
  'if(!has())document.cookie=c.slice(1)+"path=/;max-age=31536000;samesite=lax"+(location.protocol=="https:"?";secure":"");' +
  'var r=document.documentElement.getAttribute("data-tz"),s=sessionStorage;' +
  'if(r&&r!==z&&has()&&s.getItem("tz-shown")!==z){s.setItem("tz-shown",z);location.replace(location.href)}}catch(e){}})()';

/**
 * Prefetches the likely next pages (docs/product/routes.md#prefetch): the links marked
 * `data-prefetch` (public pages: the games, the landing pages) once they are on screen or a
 * pointer, a finger or the focus reaches them — at most 4 at once, each once, and none at all on a
 * data-saving or 2G connection (spec 9: 4 preloads at once, skipped on slow or data-saving
 * connections). A prefetch is a `<link rel=prefetch>` of the document, which the server answers
 * with a short private max-age so that the navigation reuses it (server/pages.ts). A link with a
 * query is never prefetched (`?locale=` and `?r=` set cookies).
 */
export const PREFETCH_SCRIPT =
  '(function(){var n=navigator.connection;if(n&&(n.saveData||/2g/.test(n.effectiveType||"")))return;' +
  "var seen={},queue=[],busy=0,MAX=4;" +
  'function next(){while(busy<MAX&&queue.length){var u=queue.shift(),l=document.createElement("link");busy++;' +
  'l.rel="prefetch";l.href=u;l.onload=l.onerror=function(){busy--;next()};document.head.appendChild(l)}}' +
  "function want(a){if(!a||a.origin!==location.origin||a.search)return;" +
  "var u=a.pathname;if(u===location.pathname||seen[u])return;seen[u]=1;queue.push(u);next()}" +
  'function near(e){var t=e.target;want(t&&t.closest&&t.closest("a[data-prefetch]"))}' +
  '["pointerover","touchstart","focusin"].forEach(function(k){document.addEventListener(k,near,{passive:true})});' +
  "if(!window.IntersectionObserver)return;" +
  "var io=new IntersectionObserver(function(es){es.forEach(function(e){if(e.isIntersecting){io.unobserve(e.target);want(e.target)}})});" +
  '(window.requestIdleCallback||setTimeout)(function(){document.querySelectorAll("a[data-prefetch]").forEach(function(a){io.observe(a)})})})()';

/** The scripts by name, for the root layout. */
export const PAGE_SCRIPTS = { timeZone: TIME_ZONE_SCRIPT, prefetch: PREFETCH_SCRIPT } as const;
