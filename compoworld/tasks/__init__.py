"""Cross-service task factory: dependency graph, random walks, explore/design/probe/submit."""
