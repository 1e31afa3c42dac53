"""The views: interactive ipywidgets and matplotlib plots over the floors below.

The only floor that imports ipywidgets or matplotlib, and only inside its own modules: each view's logic is a plain
function of a lower floor, which a test calls without a browser.
"""
