#ifndef CAIRN_BENCH_BASELINE_H
#define CAIRN_BENCH_BASELINE_H
int cairn_baseline_placeholder(void);
#endif
