/* Random reads from a large buffer in transparent huge pages, in bursts of prefetches then
 * reads: the memory floor under a pattern-database look-up on this machine.
 *   gcc -O2 benches/solver/random_reads.c -o /tmp/random_reads
 *   /tmp/random_reads 8192          # MiB of anonymous huge pages
 *   /tmp/random_reads 3072 giant    # reserved 1 GiB pages (nr_hugepages of hugepages-1048576kB)
 * Prints nanoseconds a read for bursts of 1 to 32. */
#include <sys/mman.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <time.h>
#include <xmmintrin.h>
static uint64_t x=88172645463325252ULL; static inline uint64_t rnd(){x^=x<<13;x^=x>>7;x^=x<<17;return x;}
int main(int argc,char**argv){ size_t sz=strtoull(argv[1],0,10)<<20; int giant=argc>2;
 char*p; if(giant){p=mmap(0,(sz+(1UL<<30)-1)&~((1UL<<30)-1),PROT_READ|PROT_WRITE,MAP_PRIVATE|MAP_ANONYMOUS|MAP_HUGETLB|(30<<26),-1,0); if(p==MAP_FAILED){puts("fail");return 1;}}
 else {p=aligned_alloc(1<<21,sz); madvise(p,sz,MADV_HUGEPAGE);} memset(p,1,sz);
 for(int B=1;B<=32;B*=2){ struct timespec a,b; clock_gettime(CLOCK_MONOTONIC,&a); long N=20000000/B; uint64_t s=0; size_t idx[64];
 for(long i=0;i<N;i++){ for(int k=0;k<B;k++){idx[k]=rnd()%sz; _mm_prefetch(p+idx[k],_MM_HINT_T0);} for(int k=0;k<B;k++) s+=p[idx[k]]; }
 clock_gettime(CLOCK_MONOTONIC,&b); double t=(b.tv_sec-a.tv_sec)+(b.tv_nsec-a.tv_nsec)*1e-9; printf("size %zu MiB burst %d: %.1f ns/lookup (%lu)\n",sz>>20,B,t*1e9/(N*B),s&1);} }
