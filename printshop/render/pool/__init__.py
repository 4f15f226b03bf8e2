"""The render worker processes, their pool and queue, and the Renderer products talk to."""
