package apispec

// anyValue reports whether pred holds for v or for any value inside it. It allocates nothing
// itself.
func anyValue(v any, pred func(any) bool) bool {
	if pred(v) {
		return true
	}
	switch n := v.(type) {
	case map[string]any:
		for _, child := range n {
			if anyValue(child, pred) {
				return true
			}
		}
	case []any:
		for _, child := range n {
			if anyValue(child, pred) {
				return true
			}
		}
	}
	return false
}

// eachValue calls visit with v and every value inside it, each with its field path.
func eachValue(v any, path string, visit func(node any, path string)) {
	visit(v, path)
	switch n := v.(type) {
	case map[string]any:
		for k, child := range n {
			eachValue(child, appendKey(path, k), visit)
		}
	case []any:
		for i, child := range n {
			eachValue(child, appendIndex(path, i), visit)
		}
	}
}
