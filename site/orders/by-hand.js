// The writer of a ruleset that offers the orders page no plan: the page
// shows the step's orders template to edit by hand and signs what it holds.
GalloperOrders.register(globalThis.GalloperPage ? GalloperPage.head.ruleset : 'by-hand', {
  byHand: true,
  write() {
    return {};
  },
});
