// kakehashi default theme: the reader's light or dark choice, applied
// before the first paint. Blocking, in <head>; "auto" (nothing stored, or
// storage refused) leaves <html> without data-theme, so the OS decides.
(function (d) {
  d.classList.add("js");
  try {
    var t = localStorage.getItem("kakehashi-theme");
    if (t === "light" || t === "dark") d.dataset.theme = t;
  } catch (e) { /* no storage: auto */ }
})(document.documentElement);
