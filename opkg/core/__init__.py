"""The model: labels, manifests, the workspace and its settings, versions, SoCs, the package
graph, bundles, and the plan's vocabulary (actions). Pure data and its validation; imports
nothing of opkg above util."""
