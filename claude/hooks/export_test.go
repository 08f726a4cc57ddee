package hooks

// Denial is denial, for the tests of package hooks_test.
var Denial = denial
