// Last of a page's scripts: a page whose own script never came (the address was between the
// game's page and the settings page as it loaded, or nothing answered for a moment) would stay
// at 「…」 for good; it loads again instead, a little later, until its script runs.
(function () {
  if (typeof boot === "function") return;
  setTimeout(() => location.reload(), 2000);
})();
