// Small enhancements; every page works without them.
(function () {
  "use strict";
})();
