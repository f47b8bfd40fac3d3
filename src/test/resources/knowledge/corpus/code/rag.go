package main

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Retriever finds the knowledge files that share the most words with a question.
type Retriever struct {
	Dir        string
	MaxResults int
	MinScore   float64
}

type scoredFile struct {
	path  string
	text  string
	score float64
}

// Retrieve loads every .txt, .md and .go file under Dir, scores it against the question
// and returns the best ones formatted as context for the model, each with its source path.
func (r *Retriever) Retrieve(question string) string {
	var files []scoredFile
	filepath.Walk(r.Dir, func(path string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() {
			return err
		}
		switch strings.ToLower(filepath.Ext(path)) {
		case ".txt", ".md", ".go":
			data, readErr := os.ReadFile(path)
			if readErr == nil && len(data) > 0 {
				files = append(files, scoredFile{path: path, text: string(data)})
			}
		}
		return nil
	})
	for i := range files {
		files[i].score = overlap(question, files[i].text)
	}
	sort.Slice(files, func(i, j int) bool { return files[i].score > files[j].score })
	var out strings.Builder
	for i, f := range files {
		if i == r.MaxResults || f.score < r.MinScore {
			break
		}
		out.WriteString("source: " + f.path + "\n" + f.text + "\n\n")
	}
	return out.String()
}

// overlap is the share of question words that also occur in the text.
func overlap(question, text string) float64 {
	words := strings.Fields(strings.ToLower(question))
	if len(words) == 0 {
		return 0
	}
	lower := strings.ToLower(text)
	hits := 0
	for _, w := range words {
		if strings.Contains(lower, w) {
			hits++
		}
	}
	return float64(hits) / float64(len(words))
}
