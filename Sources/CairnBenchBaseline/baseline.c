int cairn_baseline_placeholder(void) { return 0; }
