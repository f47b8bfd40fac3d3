package main

import (
	"context"
	"sync"
)

// RunAll fetches every URL with at most `workers` goroutines at a time. It stops early when ctx is
// cancelled: the producer stops sending and every worker returns, so no goroutine is left blocked
// on a channel nobody reads any more.
func RunAll(ctx context.Context, urls []string, workers int, fetch func(context.Context, string) string) []string {
	jobs := make(chan int)
	results := make([]string, len(urls))
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				results[i] = fetch(ctx, urls[i])
			}
		}()
	}
feed:
	for i := range urls {
		select {
		case jobs <- i:
		case <-ctx.Done():
			break feed
		}
	}
	close(jobs)
	wg.Wait()
	return results
}
