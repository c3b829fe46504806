"""Evidence for review: per-stroke top-down images and annotated clips."""

from vision.review.images import ReviewWriter, compose_review, stroke_image_name

__all__ = ["ReviewWriter", "compose_review", "stroke_image_name"]
